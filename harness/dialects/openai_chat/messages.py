"""One message <-> one ``Turn``, for requests and responses alike.

Blocks of a message, in order: a ``ThinkingBlock`` per reasoning field
(``reasoning_content``, DeepSeek/GLM/Qwen style, then ``reasoning``, Groq and
OpenRouter style), the content blocks, then one ``ToolCall`` per
``tool_calls[]`` entry. A ``tool`` message is one ``ToolResult``.

A reasoning or ``tool_calls`` field that is present but null stays in
``Turn.extra`` (it carries no reasoning and no calls, but must round-trip).

References: https://platform.openai.com/docs/api-reference/chat/create,
https://api-docs.deepseek.com/guides/thinking_mode (``reasoning_content``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    merge_missing,
    require_list,
    require_object,
    take_str,
    type_name,
)
from toolwire.harness.dialects.openai_chat.content import (
    content_blocks,
    parse_content,
    render_content,
)
from toolwire.harness.dialects.openai_chat.tool_calls import (
    WireArguments,
    parse_tool_call,
    render_tool_call,
    wire_arguments,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Block, ThinkingBlock, ThinkingOrigin, ToolCall, ToolResult, Turn

# Reasoning fields, in the order their blocks are placed.
REASONING_FIELDS: tuple[ThinkingOrigin, ...] = ("reasoning_content", "reasoning")

_MESSAGE_HINT = 'a message looks like {"role": "user", "content": "..."}'
_NAMED = frozenset(("role", "content", "tool_calls", *REASONING_FIELDS))
_TOOL_NAMED = frozenset(("role", "content", "tool_call_id"))


def parse_message(message: Any, path: str) -> Turn:
    if not isinstance(message, dict):
        require_object(message, path, "a message", _MESSAGE_HINT)  # raises
    role = message.get("role")
    if not isinstance(role, str):
        raise WireFormatError(
            at(path, "role"),
            f"a message needs a string role, got {type_name(role)}",
            "use system, developer, user, assistant or tool",
        )
    if role == "tool":
        return _parse_tool_message(message, path)
    extra = {k: v for k, v in message.items() if k not in _NAMED}
    blocks: list[Block] = []
    for field in REASONING_FIELDS:
        if field not in message:
            continue
        value = message[field]
        if isinstance(value, str):
            blocks.append(ThinkingBlock(origin=field, text=value))
        elif value is None:
            extra[field] = None
        else:
            raise WireFormatError(
                at(path, field), f"{field} must be a string or null, got {type_name(value)}"
            )
    content, form = parse_content(message, path)
    blocks.extend(content)
    if "tool_calls" in message:
        blocks.extend(_parse_tool_calls(message, path, extra))
    return Turn(role=role, blocks=tuple(blocks), content_form=form, extra=extra)


def _parse_tool_calls(message: Mapping[str, Any], path: str, extra: dict[str, Any]) -> list[Block]:
    if "tool_calls" not in message:
        return []
    entries = message["tool_calls"]
    calls_path = at(path, "tool_calls")
    if entries is None:
        extra["tool_calls"] = None
        return []
    entries = require_list(entries, calls_path, "tool_calls")
    if not entries:
        extra["tool_calls"] = []
    return [parse_tool_call(entry, f"{calls_path}[{i}]") for i, entry in enumerate(entries)]


def _parse_tool_message(message: Mapping[str, Any], path: str) -> Turn:
    extra = {k: v for k, v in message.items() if k not in _TOOL_NAMED}
    call_id = take_str(message, "tool_call_id", extra)
    content, form = parse_content(message, path)
    result = ToolResult(call_id=call_id, content=content, content_form=form, is_error=None)
    return Turn(role="tool", blocks=(result,), content_form=form, extra=extra)


def render_message(turn: Turn, path: str) -> dict[str, Any]:
    """Write a turn as a message. ``path`` names it in error messages."""
    if turn.role == "tool" or turn.tool_results:
        return _render_tool_message(turn, path)
    message: dict[str, Any] = {"role": turn.role}
    message.update(_render_reasoning(turn.blocks))
    calls = turn.tool_calls
    present, content = render_content(turn.blocks, turn.content_form)
    # Each call's arguments text once (JSON work): both uses below need it.
    wires = [wire_arguments(call) for call in calls]
    if _natural_null_content(turn, calls, wires):
        present, content = True, None
    if present:
        message["content"] = content
    if calls:
        message["tool_calls"] = [render_tool_call(c, w) for c, w in zip(calls, wires, strict=True)]
    return merge_missing(message, turn.extra)


def _natural_null_content(
    turn: Turn, calls: Sequence[ToolCall], wires: Sequence[WireArguments]
) -> bool:
    # A code-built assistant turn that only calls tools: OpenAI's natural form
    # is ``content: null``. A parsed ``content: []`` keeps its form (its calls
    # come from the wire).
    return (
        turn.content_form == "blocks"
        and bool(calls)
        and not content_blocks(turn.blocks)
        and not any(from_wire for _, from_wire in wires)
    )


def _render_reasoning(blocks: Sequence[Block]) -> dict[str, str]:
    """Thinking blocks -> reasoning fields. Blocks from another dialect
    (``thinking``; ``redacted_thinking`` has no text) become
    ``reasoning_content``: signatures and redacted data cannot be expressed."""
    texts: dict[str, list[str]] = {}
    for block in blocks:
        if isinstance(block, ThinkingBlock) and block.text is not None:
            field = "reasoning" if block.origin == "reasoning" else "reasoning_content"
            texts.setdefault(field, []).append(block.text)
    return {field: "".join(parts) for field, parts in texts.items()}


def _render_tool_message(turn: Turn, path: str) -> dict[str, Any]:
    results = turn.tool_results
    others = [b for b in turn.blocks if not isinstance(b, ToolResult)]
    if turn.role != "tool" or len(results) != 1 or others:
        raise WireFormatError(
            path,
            f"a {turn.role} turn with {len(results)} tool result(s) and {len(others)} other "
            "block(s) cannot be written as one openai-chat message",
            "write one Turn(role='tool') holding exactly one ToolResult per call",
        )
    result = results[0]
    message: dict[str, Any] = {"role": "tool"}
    if result.call_id is not None:
        message["tool_call_id"] = result.call_id
    present, content = render_content(result.content, result.content_form)
    if present:
        message["content"] = content
    merge_missing(message, turn.extra)
    return merge_missing(message, result.extra)
