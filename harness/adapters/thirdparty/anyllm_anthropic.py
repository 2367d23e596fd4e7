"""any-llm's Anthropic provider (its Anthropic utilities), offline.

Pinned (extra ``anyllm``): any-llm-sdk 1.40.2 (see ``_anyllm.py``).

A user calls ``AnyLLM.create("anthropic").acompletion(model="claude-sonnet-4-5",
...)`` with OpenAI-format arguments; any-llm converts them with
``any_llm.providers.anthropic.utils`` (internal module) and sends them with
the Anthropic SDK.

* request openai-chat -> anthropic-messages: ``acompletion`` with the source
  body's arguments and the model above; ``_convert_params`` builds the SDK
  call, and the body is what the SDK sends.
* response anthropic-messages -> openai-chat: ``acompletion`` answered with
  the case's response; ``_convert_response`` gives the ``ChatCompletion`` a
  user gets, as JSON.
* stream anthropic-messages -> openai-chat: ``acompletion(stream=True)``
  answered with the case's event stream; the SDK's ``messages.stream`` events
  go through ``_create_openai_chunk_from_anthropic_chunk``; the chunks as a
  Chat Completions event stream (``[DONE]`` last).

The response and stream legs send a one-message request: the request a
response answers is in the other dialect, and these conversions do not read
it.
"""

from __future__ import annotations

from typing import Any

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
    chunk_events,
    dump,
    event_stream,
    placeholder_answer,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT, PayloadKind

MODEL = "claude-sonnet-4-5"
PROMPT = [{"role": "user", "content": "toolwire"}]
_PROVIDER = "anthropic"


class AnyLLMAnthropicAdapter:
    """any-llm's Anthropic provider (see the module docstring)."""

    name = "anyllm-anthropic"

    def __init__(self) -> None:
        self.version = load_anyllm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", OPENAI_CHAT, ANTHROPIC_MESSAGES),
                ("response", ANTHROPIC_MESSAGES, OPENAI_CHAT),
                ("stream", ANTHROPIC_MESSAGES, OPENAI_CHAT),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        httpx = HTTPX[_PROVIDER]
        if kind == "request":
            _model, arguments = split_request(payload)
            replay = placeholder_answer(_PROVIDER, bool(arguments.get("stream")), httpx)
            llm = provider(_PROVIDER, replay)
            return call_for_body(replay, lambda: llm.acompletion(model=MODEL, **arguments))
        if kind == "response":
            llm = provider(_PROVIDER, Replay(answer=payload, httpx_module=httpx))
            return dump(
                call(lambda: llm.acompletion(model=MODEL, messages=PROMPT)), exclude_unset=False
            )
        llm = provider(_PROVIDER, Replay(stream=event_stream(payload), httpx_module=httpx))
        chunks = call(lambda: llm.acompletion(model=MODEL, messages=PROMPT, stream=True))
        return chunk_events(chunks, exclude_unset=False)
