"""aisuite's Anthropic provider message conversion, offline.

Pinned (extra ``aisuite``): aisuite 0.2.0 (see ``_aisuite.py``).

A user calls ``aisuite.Client().chat.completions.create("anthropic:claude-sonnet-4-5",
messages, ...)`` with OpenAI-format arguments; aisuite converts them with
``AnthropicMessageConverter`` (``aisuite.providers.anthropic_provider``, a
public class of the provider module) and calls the Anthropic SDK.

* request openai-chat -> anthropic-messages: ``create`` with the source's
  messages and arguments; ``convert_request``, ``convert_tool_spec`` and
  ``AnthropicProvider._prepare_kwargs`` build the SDK call, and the body is
  what the SDK sends.
* response anthropic-messages -> openai-chat: ``create`` answered with the
  case's response: ``convert_response``, in the envelope of ``_aisuite.py``.
* stream anthropic-messages -> openai-chat: ``create(stream=True)`` answered
  with the case's event stream: ``convert_stream_event`` per SDK event.

The response and stream legs send a one-message request: the request a
response answers is in the other dialect, and these conversions do not read
it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolwire.harness.adapters.thirdparty._aisuite import (
    client,
    load_aisuite,
    response_body,
    stream_events,
)
from toolwire.harness.adapters.thirdparty._replay import Replay, event_stream, placeholder_answer
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT, PayloadKind

MODEL = "anthropic:claude-sonnet-4-5"
PROMPT = [{"role": "user", "content": "toolwire"}]
_PROVIDER = "anthropic"


class AisuiteAnthropicAdapter:
    """aisuite's Anthropic provider (see the module docstring)."""

    name = "aisuite-anthropic"

    def __init__(self) -> None:
        self.version = load_aisuite(self.name)

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
        if kind == "request":
            return request_body(_PROVIDER, MODEL, payload)
        if kind == "response":
            suite = client(_PROVIDER, Replay(answer=payload))
            return response_body(suite.chat.completions.create(MODEL, list(PROMPT)), payload)
        suite = client(_PROVIDER, Replay(stream=event_stream(payload)))
        chunks = list(suite.chat.completions.create(MODEL, list(PROMPT), stream=True))
        return stream_events(chunks, _stream_message(payload))


def request_body(provider_key: str, model: str, body: Mapping[str, Any]) -> Any:
    """The body aisuite's ``provider_key`` provider sends for ``body``."""
    arguments = {key: value for key, value in body.items() if key not in ("model", "messages")}
    stream = bool(arguments.get("stream"))
    dialect = "anthropic" if provider_key == "anthropic" else "openai"
    replay = placeholder_answer(dialect, stream)
    suite = client(provider_key, replay)
    try:
        result = suite.chat.completions.create(model, list(body["messages"]), **arguments)
        if isinstance(result, Iterator):
            list(result)  # a stream sends its request when first read
    except Exception:
        if not replay.bodies:
            raise
    return replay.only_body()


def _stream_message(events: list[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The message of the stream's ``message_start`` (for the envelope)."""
    for event in events:
        data = event.get("data")
        if isinstance(data, Mapping) and data.get("type") == "message_start":
            message = data.get("message")
            return message if isinstance(message, Mapping) else {}
    return {}
