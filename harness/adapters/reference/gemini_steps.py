"""The reference adapter's gemini directions, composed from the one-hop steps.

gemini <-> anthropic-messages are direct (``from_gemini``, ``to_gemini``);
gemini <-> openai-chat go through the anthropic-messages form, whose
Chat Completions steps (``to_openai``, ``to_anthropic``) already carry every
openai-chat convention (the ``Error:`` marker, ``content: null``, ids).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from harness.adapters.reference import from_gemini, to_anthropic, to_gemini, to_openai
from harness.adapters.reference.gemini_ids import split_id
from harness.adapters.reference.ids import from_anthropic_id
from harness.dialects import get_codec
from harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    Conversation,
    PayloadKind,
    Response,
    ToolCall,
    ToolResult,
)

if TYPE_CHECKING:
    from harness.adapters.reference.adapter import ReferenceAdapter


def request_step(source: str, target: str) -> Callable[[Conversation], Conversation]:
    if source == GEMINI and target == ANTHROPIC_MESSAGES:
        return from_gemini.conversation_from_gemini
    if source == GEMINI:
        return lambda c: to_openai.conversation_to_openai(
            from_gemini.conversation_from_gemini(c, require_max=False), target
        )
    if source == ANTHROPIC_MESSAGES:
        return to_gemini.conversation_to_gemini
    return lambda c: to_gemini.conversation_to_gemini(to_anthropic.conversation_to_anthropic(c))


def response_step(source: str, target: str) -> Callable[[Response], Response]:
    if source == GEMINI and target == ANTHROPIC_MESSAGES:
        return from_gemini.response_from_gemini
    if source == GEMINI:
        return lambda r: to_openai.response_to_openai(from_gemini.response_from_gemini(r), target)
    if source == ANTHROPIC_MESSAGES:
        return to_gemini.response_to_gemini
    return lambda r: to_gemini.response_to_gemini(to_anthropic.response_to_anthropic(r))


def _ids(parsed: Conversation | Response) -> list[str | None]:
    if isinstance(parsed, Conversation):
        blocks = [b for turn in parsed.turns for b in turn.blocks]
    else:
        blocks = [b for choice in parsed.choices for b in choice.message.blocks]
    ids = [b.id for b in blocks if isinstance(b, ToolCall)]
    return ids + [b.call_id for b in blocks if isinstance(b, ToolResult)]


def id_mapping(
    adapter: ReferenceAdapter, payload: Any, kind: PayloadKind, source: str, target: str
) -> dict[str, str]:
    """Source id -> output id for the ids that change: Gemini ids that gain a
    carried signature, and carried ids that lose it on the way back."""
    output = adapter.convert(payload, kind, source, target)
    codec = get_codec(target)
    # Streams: both sides read through the adapter's own event handling.
    if kind == "request":
        out_parsed: Conversation | Response = codec.parse_request(output)
        in_parsed: Conversation | Response = get_codec(source).parse_request(payload)
    elif kind == "response":
        out_parsed, in_parsed = (
            codec.parse_response(output),
            get_codec(source).parse_response(payload),
        )
    else:
        return {}
    mapping: dict[str, str] = {}
    for before, after in zip(_ids(in_parsed), _ids(out_parsed), strict=False):
        if before and after and before != after:
            mapping[before] = after
    return mapping


__all__ = ["from_anthropic_id", "id_mapping", "request_step", "response_step", "split_id"]
