"""Content blocks of anthropic-messages <-> canonical blocks.

Block shapes follow the Messages API reference
(https://platform.claude.com/docs/en/api/messages), tool use
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use)
and extended thinking
(https://platform.claude.com/docs/en/build-with-claude/extended-thinking).

Only the shape is checked here: a block must be an object with a string
``type``, and the fields the model names must have representable types.
Semantic mistakes (empty text, ``input`` given as a string, a result in an
assistant turn) parse faithfully so that the rules can judge them. Keys the
model does not name are kept in ``extra`` (``OpaqueBlock.raw`` for block types
the model does not interpret), so rendering a parsed block returns it
unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.anthropic_messages._shape import (
    describe,
    expect_object,
    join,
    optional_bool,
    optional_str,
    put,
    required_str,
    split_extra,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Block,
    ContentForm,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)

_MISSING = object()
# The keys each block type names (split_extra keeps the rest).
_TEXT_NAMED = frozenset(("type", "text"))
_THINKING_NAMED = frozenset(("type", "thinking", "signature"))
_REDACTED_NAMED = frozenset(("type", "data"))
_TOOL_USE_NAMED = frozenset(("type", "id", "name", "input"))
_TOOL_RESULT_NAMED = frozenset(("type", "tool_use_id", "is_error"))


def parse_block(raw: Any, path: str) -> Block:
    """One content block; ``path`` locates it in the payload."""
    block = expect_object(raw, path, "a content block")
    block_type = block.get("type")
    if not isinstance(block_type, str):
        if "type" not in block:
            raise WireFormatError(
                path,
                "content block has no `type`",
                hint='every block needs a type such as "text", "tool_use" or "tool_result"',
            )
        block_type = required_str(block, "type", path, "a content block")
    if block_type == "text":
        text = block.get("text")
        if not isinstance(text, str):
            text = required_str(block, "text", path, "a text block")
        return TextBlock(text=text, extra=split_extra(block, _TEXT_NAMED))
    if block_type == "thinking":
        return ThinkingBlock(
            origin="thinking",
            text=optional_str(block, "thinking", path),
            signature=optional_str(block, "signature", path),
            extra=split_extra(block, _THINKING_NAMED),
        )
    if block_type == "redacted_thinking":
        return ThinkingBlock(
            origin="redacted_thinking",
            redacted_data=optional_str(block, "data", path),
            extra=split_extra(block, _REDACTED_NAMED),
        )
    if block_type == "tool_use":
        # `input` is kept whatever its JSON type: a string there is a converter
        # bug (double encoding) that fidelity.arguments must be able to see.
        return ToolCall(
            id=optional_str(block, "id", path),
            name=optional_str(block, "name", path),
            arguments=block.get("input"),
            raw_arguments=None,
            extra=split_extra(block, _TOOL_USE_NAMED),
        )
    if block_type == "tool_result":
        return _parse_tool_result(block, path)
    return OpaqueBlock(type=block_type, raw=dict(block))


def _parse_tool_result(block: Mapping[str, Any], path: str) -> ToolResult:
    content, form = parse_content(block.get("content", _MISSING), join(path, "content"))
    extra = split_extra(block, _TOOL_RESULT_NAMED)
    extra.pop("content", None)  # carried by content/content_form instead
    return ToolResult(
        call_id=optional_str(block, "tool_use_id", path),
        content=content,
        content_form=form,
        is_error=optional_bool(block, "is_error", path),
        extra=extra,
    )


def parse_blocks(raw: Sequence[Any], path: str) -> tuple[Block, ...]:
    return tuple([parse_block(item, f"{path}[{i}]") for i, item in enumerate(raw)])


def parse_content(value: Any, path: str) -> tuple[tuple[Block, ...], ContentForm]:
    """A ``content`` (or ``system``) field: a string, a list of blocks, null,
    or absent (pass the module's ``_MISSING`` sentinel via ``content_of``)."""
    if value is _MISSING:
        return (), "absent"
    if value is None:
        return (), "null"
    if isinstance(value, str):
        return (TextBlock(text=value),), "string"
    if isinstance(value, list):
        return parse_blocks(value, path), "blocks"
    raise WireFormatError(
        path,
        f"content must be a string or an array of blocks, got {describe(value)}",
        hint='use "content": "text" or "content": [{"type": "text", "text": "..."}]',
    )


def content_of(
    obj: Mapping[str, Any], key: str, path: str
) -> tuple[tuple[Block, ...], ContentForm]:
    """Parse ``obj[key]`` as content, telling an absent key from a null one."""
    return parse_content(obj.get(key, _MISSING), join(path, key))


def render_block(block: Block) -> dict[str, Any]:
    """One canonical block as an anthropic-messages content block."""
    if isinstance(block, OpaqueBlock):
        return dict(block.raw)
    out: dict[str, Any]
    if isinstance(block, TextBlock):
        out = {"type": "text", "text": block.text}
    elif isinstance(block, ThinkingBlock):
        return _render_thinking(block)
    elif isinstance(block, ToolCall):
        # `raw_arguments` is another dialect's text form; this dialect carries
        # the parsed value. A call whose arguments did not parse has no input.
        out = {"type": "tool_use"}
        put(out, "id", block.id)
        put(out, "name", block.name)
        put(out, "input", block.arguments)
    else:
        out = {"type": "tool_result"}
        put(out, "tool_use_id", block.call_id)
        present, value = render_content(block.content, block.content_form)
        if present:
            out["content"] = value
        put(out, "is_error", block.is_error)
    return _with_extra(out, block.extra)


def _render_thinking(block: ThinkingBlock) -> dict[str, Any]:
    if block.origin == "redacted_thinking":
        out: dict[str, Any] = {"type": "redacted_thinking"}
        put(out, "data", block.redacted_data)
        return _with_extra(out, block.extra)
    if block.origin == "thinking":
        out = {"type": "thinking"}
        put(out, "thinking", block.text)
        put(out, "signature", block.signature)
        return _with_extra(out, block.extra)
    # Reasoning from another dialect (DeepSeek `reasoning_content`, `reasoning`)
    # becomes a thinking block. Its `extra` belongs to that dialect and is not
    # written. Without a signature the block is written without one: inventing
    # a signature would hide the loss that reasoning.signature_lost reports.
    out = {"type": "thinking", "thinking": block.text if block.text is not None else ""}
    put(out, "signature", block.signature)
    return out


def _with_extra(out: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    # Named fields win over extra: extra only holds an explicit null for them.
    for key, value in extra.items():
        if key not in out:
            out[key] = value
    return out


def render_blocks(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    return [render_block(b) for b in blocks]


def render_content(blocks: Sequence[Block], form: ContentForm) -> tuple[bool, Any]:
    """``(present, value)`` of a content field carried in ``form``.

    The string form is used only when it loses nothing (no blocks, or one text
    block without extra keys); otherwise the blocks are written as a list.
    """
    if form == "string":
        if not blocks:
            return True, ""
        only = blocks[0]
        if len(blocks) == 1 and isinstance(only, TextBlock) and not only.extra:
            return True, only.text
    elif form == "null" and not blocks:
        return True, None
    elif form == "absent" and not blocks:
        return False, None
    return True, render_blocks(blocks)
