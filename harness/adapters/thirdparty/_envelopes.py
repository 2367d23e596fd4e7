"""Response envelopes for libraries that convert messages but render no response body.

LangChain turns a provider's answer into an ``AIMessage`` and back into a
message dict; the body around that message (id, stop reason, usage) is
toolwire's leg, written here with the stop-reason table of
docs/conventions.md, so a verdict on it is not the library's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# docs/conventions.md, "Stop reasons".
_ANTHROPIC_TO_OPENAI = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
}
_OPENAI_TO_ANTHROPIC = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}


def _tokens(usage: Mapping[str, Any] | None, key: str) -> int:
    value = (usage or {}).get(key)
    return value if isinstance(value, int) else 0


def openai_completion(
    source: Mapping[str, Any],
    message: Mapping[str, Any],
    stop_reason: Any,
    usage: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """A Chat Completions body around ``message`` (converted by the library)."""
    body: dict[str, Any] = {
        "id": source.get("id"),
        "object": "chat.completion",
        "created": 0,
        "model": source.get("model"),
        "choices": [
            {
                "index": 0,
                "message": dict(message),
                "logprobs": None,
                "finish_reason": _ANTHROPIC_TO_OPENAI.get(str(stop_reason), stop_reason),
            }
        ],
    }
    if usage is not None:
        body["usage"] = {
            "prompt_tokens": _tokens(usage, "input_tokens"),
            "completion_tokens": _tokens(usage, "output_tokens"),
            "total_tokens": _tokens(usage, "total_tokens"),
        }
    return body


def anthropic_message(
    source: Mapping[str, Any],
    formatted: list[Mapping[str, Any]],
    finish_reason: Any,
    usage: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """An Anthropic Messages body around the assistant content the library formatted."""
    content: Any = []
    for message in formatted:
        if message.get("role") == "assistant":
            content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}] if content else []
    stop = _OPENAI_TO_ANTHROPIC.get(str(finish_reason), finish_reason)
    if stop == "end_turn" and any(block.get("type") == "tool_use" for block in content):
        stop = "tool_use"  # OpenAI answers a named tool_choice with "stop" (conventions.md)
    return {
        "id": source.get("id"),
        "type": "message",
        "role": "assistant",
        "model": source.get("model"),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": _tokens(usage, "input_tokens"),
            "output_tokens": _tokens(usage, "output_tokens"),
        },
    }
