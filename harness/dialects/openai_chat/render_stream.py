"""Write a ``Response`` as the SSE chunks an OpenAI server would send.

Per choice, in the order real OpenAI and DeepSeek streams use: a first chunk
whose delta opens the message (``{"role": "assistant", "content": ""}`` when
text follows, ``"content": null`` otherwise, plus message fields such as
``refusal``); reasoning chunks (``reasoning_content`` / ``reasoning``);
content chunks; per tool call a first fragment ``{index, id, type,
function:{name, arguments:""}}`` then argument fragments; a last chunk with an
empty delta and the finish_reason. Then a usage-only chunk
(``choices: []``, as with ``stream_options.include_usage``) when the response
has usage, and ``data: [DONE]``.

Chunks carry the response's id, model and metadata (``created``,
``system_fingerprint``...) from ``Response.extra``; JSON is compact, as on
OpenAI's wire. ``fragment_size`` splits text and arguments into pieces of
that many characters (``None``: one piece each).

Reference: https://platform.openai.com/docs/api-reference/chat-streaming
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    encode_arguments,
    render_finish_reason,
    render_usage,
)
from toolwire.harness.dialects.openai_chat.content import content_blocks
from toolwire.harness.dialects.openai_chat.tool_calls import wire_arguments
from toolwire.harness.model import Choice, Response, SSEEvent, TextBlock, ThinkingBlock, ToolCall

# Response.extra fields that describe a whole completion, not a chunk.
_NOT_CHUNK_METADATA = ("object", "choices", "usage", "id", "model", "obfuscation")
# Message fields that have their own deltas; in Turn.extra they are nulls.
_DELTA_FIELDS = ("role", "content", "tool_calls", "reasoning_content", "reasoning")


def render_stream(response: Response, *, fragment_size: int | None = None) -> tuple[SSEEvent, ...]:
    envelope = _envelope(response)
    with_usage = response.usage is not None
    chunks: list[dict[str, Any]] = []
    for choice in response.choices:
        for entry in _choice_entries(choice, fragment_size):
            chunk = {**envelope, "choices": [entry]}
            if with_usage:
                # OpenAI sends usage: null on every chunk when usage is requested.
                chunk["usage"] = None
            chunks.append(chunk)
    if response.usage is not None:
        chunks.append({**envelope, "choices": [], "usage": render_usage(response.usage)})
    events = [
        SSEEvent(data=json.dumps(c, ensure_ascii=False, separators=(",", ":"))) for c in chunks
    ]
    events.append(SSEEvent(data="[DONE]"))
    return tuple(events)


def _envelope(response: Response) -> dict[str, Any]:
    envelope: dict[str, Any] = {}
    if response.id is not None:
        envelope["id"] = response.id
    envelope["object"] = "chat.completion.chunk"
    if "created" in response.extra:
        envelope["created"] = response.extra["created"]
    if response.model is not None:
        envelope["model"] = response.model
    for key, value in response.extra.items():
        if key not in _NOT_CHUNK_METADATA:
            envelope.setdefault(key, value)
    return envelope


def _pieces(text: str, size: int | None) -> list[str]:
    if not size or len(text) <= size:
        return [text]
    return [text[i : i + size] for i in range(0, len(text), size)]


def _choice_entries(choice: Choice, size: int | None) -> list[dict[str, Any]]:
    message = choice.message

    def entry(delta: dict[str, Any]) -> dict[str, Any]:
        return {"index": choice.index, "delta": delta, "logprobs": None, "finish_reason": None}

    texts = [b for b in content_blocks(message.blocks) if isinstance(b, TextBlock)]
    has_text = bool(texts) or message.content_form == "string"
    opening: dict[str, Any] = {"role": message.role, "content": "" if has_text else None}
    for key, value in message.extra.items():
        if key not in _DELTA_FIELDS:
            opening.setdefault(key, value)
    entries = [entry(opening)]
    for block in message.blocks:
        if isinstance(block, ThinkingBlock) and block.text is not None:
            field = "reasoning" if block.origin == "reasoning" else "reasoning_content"
            entries.extend(entry({field: piece}) for piece in _pieces(block.text, size))
    text = "".join(b.text for b in texts)
    if text:
        entries.extend(entry({"content": piece}) for piece in _pieces(text, size))
    for position, call in enumerate(message.tool_calls):
        entries.extend(entry({"tool_calls": [f]}) for f in _call_fragments(call, position, size))
    last = entry({})
    last.update(choice.extra)
    last["finish_reason"] = render_finish_reason(choice.stop_reason)
    entries.append(last)
    return entries


def _call_fragments(call: ToolCall, position: int, size: int | None) -> list[dict[str, Any]]:
    arguments, _ = wire_arguments(call)
    if arguments is None:
        # A stream can only carry text: write the wire value as JSON.
        arguments = "" if call.arguments is None else encode_arguments(call.arguments)
    start: dict[str, Any] = {"index": position}
    if call.id is not None:
        start["id"] = call.id
    call_type = call.extra.get("type", "function")
    start["type"] = call_type
    function: dict[str, Any] = {}
    if call.name is not None:
        function["name"] = call.name
    function["arguments"] = ""
    start["function"] = function
    fragments = [start]
    if arguments:
        fragments.extend(
            {"index": position, "function": {"arguments": piece}}
            for piece in _pieces(arguments, size)
        )
    return fragments
