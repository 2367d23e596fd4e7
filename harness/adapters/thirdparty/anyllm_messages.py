"""any-llm's Messages compatibility layer, offline: Anthropic Messages in and
out, a Chat Completions model behind.

Pinned (extra ``anyllm``): any-llm-sdk 1.40.2 (see ``_anyllm.py``).

A user calls ``AnyLLM.create("openai").amessages(model="gpt-4.1-mini", ...)``
with Anthropic-format arguments; any-llm converts them with
``any_llm.utils.messages_compat`` (internal module) and calls the provider's
Chat Completions API (``AnyLLM._amessages``, the path of every provider
without a native Messages API).

* request anthropic-messages -> openai-chat: ``amessages`` with the source
  body and the model above; ``messages_params_to_completion_params`` and the
  OpenAI provider's ``_convert_completion_params`` build the SDK call, and
  the body is what the openai SDK sends. A request any-llm sends to OpenAI's
  Responses API instead (its OpenAI provider does so for tools with thinking
  enabled) is declined: it is not a Chat Completions body.
* response openai-chat -> anthropic-messages: ``amessages`` answered with the
  case's response: ``chat_completion_to_message_response``, the
  ``MessageResponse`` a user gets, as JSON.
* stream openai-chat -> anthropic-messages: ``amessages(stream=True)``
  answered with the case's stream: ``chat_completion_chunk_to_message_stream_events``
  and the closing events of ``_amessages``, each event as ``{event: type, data}``.

The response and stream legs send a one-message request: the request a
response answers is in the other dialect, and these conversions do not read
it.
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._anyllm import (
    HTTPX,
    call,
    call_for_body,
    load_anyllm,
    provider,
    split_request,
)
from toolwire.harness.adapters.thirdparty._replay import (
    Replay,
    dump,
    event_stream,
    placeholder_answer,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT, PayloadKind

MODEL = "gpt-4.1-mini"
PROMPT = [{"role": "user", "content": "toolwire"}]
MAX_TOKENS = 1024
_PROVIDER = "openai"


class AnyLLMMessagesAdapter:
    """any-llm's Messages-to-Completions bridge (see the module docstring)."""

    name = "anyllm-messages"

    def __init__(self) -> None:
        self.version = load_anyllm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", ANTHROPIC_MESSAGES, OPENAI_CHAT),
                ("response", OPENAI_CHAT, ANTHROPIC_MESSAGES),
                ("stream", OPENAI_CHAT, ANTHROPIC_MESSAGES),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        httpx = HTTPX[_PROVIDER]
        if kind == "request":
            _model, arguments = split_request(payload)
            replay = placeholder_answer(_PROVIDER, bool(arguments.get("stream")), httpx)
            llm = provider(_PROVIDER, replay)
            body = call_for_body(replay, lambda: llm.amessages(model=MODEL, **arguments))
            if not replay.urls[0].endswith("/chat/completions"):
                raise UnsupportedConversion(
                    f"any-llm sends this request to {replay.urls[0]}, not Chat Completions"
                )
            return body
        if kind == "response":
            llm = provider(_PROVIDER, Replay(answer=payload, httpx_module=httpx))
            response = call(
                lambda: llm.amessages(model=MODEL, messages=PROMPT, max_tokens=MAX_TOKENS)
            )
            return dump(response, exclude_unset=False)
        llm = provider(_PROVIDER, Replay(stream=event_stream(payload), httpx_module=httpx))
        events = call(
            lambda: llm.amessages(model=MODEL, messages=PROMPT, max_tokens=MAX_TOKENS, stream=True)
        )
        return [{"event": event.type, "data": dump(event, exclude_unset=False)} for event in events]
