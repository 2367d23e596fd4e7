"""Canonical turns -> Responses API items (the inverse of ``items.py``).

Apart from parsing because writing has its own decisions: natural forms for
turns built by code, the item ids a Response object always carries, and the
recorded layout and fields merged back so that ``render(parse(p)) == p``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.common import at, merge_missing
from toolwire.harness.dialects.openai_chat.tool_calls import wire_arguments
from toolwire.harness.dialects.openai_responses.content import render_parts
from toolwire.harness.dialects.openai_responses.items import content_text, public, summary_text
from toolwire.harness.dialects.openai_responses.layout import item_layout
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Block,
    OpaqueBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)

_ID_PREFIX = {"message": "msg", "function_call": "fc", "reasoning": "rs", "item": "item"}


def render_turns(turns: Sequence[Turn], path: str, response: bool = False) -> list[Any]:
    items: list[Any] = []
    for index, turn in enumerate(turns):
        where = at(path, index)
        if turn.role == "assistant":
            items.extend(render_assistant(turn, where, response))
        elif turn.role == "tool" or turn.tool_results:
            items.extend(_render_output(turn, where))
        elif turn.role == "item":
            items.extend(dict(b.raw) for b in turn.blocks if isinstance(b, OpaqueBlock))
        else:
            # Natural form: the plain {role, content} message (EasyInputMessage).
            item: dict[str, Any] = {"role": turn.role}
            if turn.content_form != "absent" or turn.blocks:
                item["content"] = render_parts(turn.blocks, turn.content_form, "input_text")
            items.append(merge_missing(item, public(turn.extra)))
    return items


def _render_output(turn: Turn, path: str) -> list[dict[str, Any]]:
    others = [b for b in turn.blocks if not isinstance(b, ToolResult)]
    if others:
        raise WireFormatError(
            path,
            f"a {turn.role} turn holding tool results and {len(others)} other block(s) "
            "cannot be written as function_call_output items",
            "write one Turn(role='tool') per result",
        )
    items = []
    for result in turn.tool_results:
        item: dict[str, Any] = {}
        if "type" not in result.extra:
            item["type"] = "function_call_output"
        if result.call_id is not None:
            item["call_id"] = result.call_id
        if result.content_form != "absent" or result.content:
            item["output"] = render_parts(result.content, result.content_form, "input_text")
        items.append(merge_missing(item, result.extra))
    return items


def render_assistant(turn: Turn, path: str, response: bool) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for entry, blocks in item_layout(turn):
        kind = entry["kind"]
        block = blocks[0] if blocks else None
        if kind == "function_call" and isinstance(block, ToolCall):
            item, built = render_function_call(block, response), not block.extra
        elif kind == "reasoning" and isinstance(block, ThinkingBlock):
            item, built = render_reasoning(block), not block.extra
        elif kind == "item" and isinstance(block, OpaqueBlock):
            item, built = dict(block.raw), False
        else:
            item, built = _render_message(entry, blocks, response), "fields" not in entry
        if response and built and "id" not in item:
            # The Response object's items always carry an id: a code-built
            # one gets <prefix>_<position>.
            item = {"id": f"{_ID_PREFIX[kind]}_{len(items)}", **item}
        items.append(item)
    return items


def _render_message(
    entry: Mapping[str, Any], blocks: Sequence[Block], response: bool
) -> dict[str, Any]:
    fields = entry.get("fields")
    if isinstance(fields, Mapping):
        item: dict[str, Any] = {"role": "assistant"}
        form = entry.get("form", "blocks")
        if form != "absent" or blocks:
            item["content"] = render_parts(blocks, form, "output_text")
        return merge_missing(item, fields)
    # Natural forms: the Response object's full output message; in a request
    # the plain {role, content} message (EasyInputMessage) every client sends.
    if response:
        content = render_parts(blocks, "blocks", "output_text", with_annotations=True)
        return {"type": "message", "role": "assistant", "status": "completed", "content": content}
    return {
        "type": "message",
        "role": "assistant",
        "content": render_parts(blocks, "string", "output_text"),
    }


def render_function_call(call: ToolCall, response: bool = False) -> dict[str, Any]:
    arguments, _ = wire_arguments(call)
    item: dict[str, Any] = {}
    if "type" not in call.extra:
        item["type"] = "function_call"
    if call.item_id is not None:
        item["id"] = call.item_id
    if call.id is not None:
        item["call_id"] = call.id
    if call.name is not None:
        item["name"] = call.name
    if arguments is not None:
        item["arguments"] = arguments
    if response and not call.extra:
        item["status"] = "completed"
    return merge_missing(item, call.extra)


def render_reasoning(block: ThinkingBlock) -> dict[str, Any]:
    item: dict[str, Any] = {}
    if "type" not in block.extra:
        item["type"] = "reasoning"
    if block.item_id is not None:
        item["id"] = block.item_id
    recorded = block.extra.get("summary")
    # Text read from the item's reasoning ``content`` stays there (merged back below).
    from_content = summary_text(recorded) is None and content_text(block.extra.get("content"))
    if from_content and from_content == block.text:
        item["summary"] = recorded if isinstance(recorded, list) else []
    elif "summary" not in block.extra or summary_text(recorded) != block.text:
        text = block.text
        item["summary"] = [] if not text else [{"type": "summary_text", "text": text}]
    if block.encrypted_content is not None:
        item["encrypted_content"] = block.encrypted_content
    return merge_missing(item, block.extra)
