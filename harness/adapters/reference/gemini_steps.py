"""The reference adapter's gemini directions, composed from the one-hop steps.

gemini <-> anthropic-messages are direct (``from_gemini``, ``to_gemini``);
gemini <-> openai-chat go through the anthropic-messages form, whose
Chat Completions steps (``to_openai``, ``to_anthropic``) already carry every
openai-chat convention (the ``Error:`` marker, ``content: null``, ids).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from toolwire.harness.adapters.reference import from_gemini, to_anthropic, to_gemini, to_openai
from toolwire.harness.adapters.reference.gemini_ids import join_id, split_id
from toolwire.harness.adapters.reference.ids import from_anthropic_id, to_anthropic_id
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    Conversation,
    Response,
    ToolCall,
    ToolResult,
)


def request_step(source: str, target: str) -> Callable[[Conversation], Conversation]:
    if source == GEMINI and target == ANTHROPIC_MESSAGES:
        return from_gemini.conversation_from_gemini
    if source == GEMINI:
        return lambda c: to_openai.conversation_to_openai(
            from_gemini.conversation_from_gemini(c, require_max=False), target
        )
    if source == ANTHROPIC_MESSAGES:
        return to_gemini.conversation_to_gemini
    return lambda c: to_gemini.conversation_to_gemini(
        _no_invented_limit(c, to_anthropic.conversation_to_anthropic(c))
    )


def _no_invented_limit(source: Conversation, via_anthropic: Conversation) -> Conversation:
    """The step through Anthropic writes the ``max_tokens`` Anthropic requires
    (a default when the source set none); Gemini requires none, so a default
    the source never chose is not carried on (fidelity.parameters)."""
    if any(
        source.extra.get(key) is not None
        for key in ("max_tokens", "max_completion_tokens", "max_output_tokens")
    ):
        return via_anthropic
    extra = {k: v for k, v in via_anthropic.extra.items() if k != "max_tokens"}
    return replace(via_anthropic, extra=extra)


def response_step(source: str, target: str) -> Callable[[Response], Response]:
    if source == GEMINI and target == ANTHROPIC_MESSAGES:
        return from_gemini.response_from_gemini
    if source == GEMINI:
        return lambda r: to_openai.response_to_openai(from_gemini.response_from_gemini(r), target)
    if source == ANTHROPIC_MESSAGES:
        return to_gemini.response_to_gemini
    return lambda r: to_gemini.response_to_gemini(to_anthropic.response_to_anthropic(r))


def id_mapping(blocks: Sequence[object], source: str, target: str) -> dict[str, str]:
    """Source id -> output id for the ids the conversion changes, read from the
    source's blocks alone: a Gemini id gains its call's signature (and, toward
    Anthropic, the ``twid_`` encoding); toward Gemini a carried id loses them."""
    mapping: dict[str, str] = {}
    if source == GEMINI:
        signatures = {b.id: b.signature for b in blocks if isinstance(b, ToolCall) and b.id}
        for call_id, signature in signatures.items():
            joined = join_id(call_id, signature)
            out = to_anthropic_id(joined) if target == ANTHROPIC_MESSAGES else joined
            if out and out != call_id:
                mapping[call_id] = out
        return mapping
    ids = [b.id for b in blocks if isinstance(b, ToolCall)]
    ids += [b.call_id for b in blocks if isinstance(b, ToolResult)]
    for value in ids:
        if not value:
            continue
        gemini_id, _ = split_id(from_anthropic_id(value))
        if gemini_id and gemini_id != value:
            mapping[value] = gemini_id
    return mapping


__all__ = ["id_mapping", "request_step", "response_step"]
