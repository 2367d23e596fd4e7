"""Responses API items <-> canonical turns.

The Responses API carries a conversation as a flat list of *items*
(https://platform.openai.com/docs/api-reference/responses/create, ``input``;
https://platform.openai.com/docs/api-reference/responses/object, ``output``).
The rules judge turns, so the items are grouped the way the other dialects
group them:

* consecutive model-side items (assistant ``message``, ``function_call``,
  ``reasoning`` and hosted-tool calls such as ``web_search_call``) form one
  ``Turn(role="assistant")``: a message's text parts are ``TextBlock`` s, a
  ``function_call`` a ``ToolCall`` (``id`` = ``call_id``, ``item_id`` = its
  ``fc_...`` id), a ``reasoning`` item a ``ThinkingBlock(origin="reasoning_item")``,
  a hosted-tool call an ``OpaqueBlock`` holding the whole item;
* a user, system or developer ``message`` is one turn in that role (the
  item's other fields, such as ``type``, in ``Turn.extra``);
* each ``function_call_output`` is a ``Turn(role="tool")`` holding one
  ``ToolResult`` (the item's ``type``, ``id``, ``status`` in its ``extra``);
* any other item (``item_reference``, ``computer_call_output``...) is a
  ``Turn(role="item")`` holding it as an ``OpaqueBlock``.

An assistant turn remembers where its items began and ended (the private
``_items`` layout in ``Turn.extra``, never written to the wire), so that
``render(parse(p)) == p``; a turn built by code gets the natural layout: a
run of text is one message item, each call and each reasoning block its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    decode_arguments,
    merge_missing,
    require_list,
    require_object,
    take_str,
    type_name,
)
from toolwire.harness.dialects.openai_chat.tool_calls import wire_arguments
from toolwire.harness.dialects.openai_responses.content import (
    CONTENT_PART_TYPES,
    parse_parts,
    render_parts,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Block,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)

LAYOUT = "_items"
PRIVATE_PREFIX = "_"
_ITEM_HINT = 'an input item looks like {"role": "user", "content": "..."} or {"type": "...", ...}'
_MODEL_SIDE = frozenset(("mcp_list_tools", "mcp_approval_request", "compaction"))
_CALL_NAMED = frozenset(("call_id", "id", "name", "arguments"))
_REASONING_NAMED = frozenset(("id", "encrypted_content"))
_OUTPUT_NAMED = frozenset(("call_id", "output"))
_ID_PREFIX = {"message": "msg", "function_call": "fc", "reasoning": "rs", "item": "item"}


def public(extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra`` without the codec's private keys."""
    return {k: v for k, v in extra.items() if not k.startswith(PRIVATE_PREFIX)}


def is_model_side(kind: str) -> bool:
    """A hosted-tool item the model produces (``web_search_call``, ``mcp_call``...)."""
    return kind.endswith("_call") or kind in _MODEL_SIDE


class _Grouper:
    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.blocks: list[Block] = []
        self.layout: list[dict[str, Any]] = []

    def add(self, blocks: Sequence[Block], entry: dict[str, Any]) -> None:
        self.blocks.extend(blocks)
        self.layout.append({**entry, "size": len(blocks)})

    def flush(self) -> None:
        if self.layout:
            extra = {LAYOUT: tuple(self.layout)}
            self.turns.append(Turn("assistant", tuple(self.blocks), "blocks", extra))
        self.blocks, self.layout = [], []

    def turn(self, turn: Turn) -> None:
        self.flush()
        self.turns.append(turn)


def parse_items(items: Any, path: str, output: bool = False) -> tuple[Turn, ...]:
    """Items -> turns. ``output``: every item is the model's (a Response's output)."""
    items = require_list(items, path, "the item list")
    grouper = _Grouper()
    for index, item in enumerate(items):
        item_path = at(path, index)
        item = require_object(item, item_path, "an item", _ITEM_HINT)
        kind = item.get("type", "message" if "role" in item else None)
        if not isinstance(kind, str):
            raise WireFormatError(
                at(item_path, "type"), f"an item needs a string type, got {type_name(kind)}"
            )
        if kind == "message":
            _message(item, item_path, grouper)
        elif kind == "function_call":
            grouper.add([parse_function_call(item, item_path)], {"kind": kind})
        elif kind == "reasoning":
            grouper.add([parse_reasoning(item, item_path)], {"kind": kind})
        elif kind == "function_call_output" and not output:
            grouper.turn(_function_call_output(item, item_path))
        elif output or is_model_side(kind):
            grouper.add([OpaqueBlock(kind, item)], {"kind": "item"})
        else:
            grouper.turn(Turn("item", (OpaqueBlock(kind, item),), "blocks"))
    grouper.flush()
    return tuple(grouper.turns)


def _message(item: dict[str, Any], path: str, grouper: _Grouper) -> None:
    role = item.get("role")
    if not isinstance(role, str):
        raise WireFormatError(
            at(path, "role"),
            f"a message item needs a string role, got {type_name(role)}",
            "use user, assistant, system or developer",
        )
    if "content" in item:
        blocks, form = parse_parts(item["content"], at(path, "content"))
    else:
        blocks, form = (), "absent"
    fields = {k: v for k, v in item.items() if k not in ("role", "content")}
    if role == "assistant":
        grouper.add(blocks, {"kind": "message", "fields": fields, "form": form})
    else:
        grouper.turn(Turn(role, blocks, form, fields))


def parse_function_call(item: Mapping[str, Any], path: str) -> ToolCall:
    extra = {k: v for k, v in item.items() if k not in _CALL_NAMED}
    call_id = take_str(item, "call_id", extra)
    item_id = take_str(item, "id", extra)
    name = take_str(item, "name", extra)
    raw: str | None = None
    error: str | None = None
    if "arguments" not in item:
        arguments, error = None, "arguments is missing"
    elif isinstance(item["arguments"], str):
        raw = item["arguments"]
        arguments, error = decode_arguments(raw)
    else:
        # Arguments are JSON text on this wire; an object is a converter bug.
        arguments = item["arguments"]
        error = f"arguments is {type_name(arguments)}, not a JSON string"
        extra["arguments"] = arguments
    return ToolCall(call_id, name, arguments, raw, error, extra, item_id=item_id)


def parse_reasoning(item: Mapping[str, Any], path: str) -> ThinkingBlock:
    extra = {k: v for k, v in item.items() if k not in _REASONING_NAMED}
    item_id = take_str(item, "id", extra)
    encrypted = take_str(item, "encrypted_content", extra)
    summary = item.get("summary")
    if "summary" in item and not isinstance(summary, list):
        raise WireFormatError(
            at(path, "summary"), f"summary must be an array, got {type_name(summary)}"
        )
    return ThinkingBlock(
        origin="reasoning_item",
        text=reasoning_text(item),
        extra=extra,
        encrypted_content=encrypted,
        item_id=item_id,
    )


def summary_text(summary: Any) -> str | None:
    """The summary parts' texts joined, or ``None`` when there is no text."""
    if not isinstance(summary, list):
        return None
    texts = [p["text"] for p in summary if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return "".join(texts) if texts else None


def content_text(content: Any) -> str | None:
    """The ``reasoning_text`` parts' texts joined (a reasoning item's ``content``,
    "Reasoning text content": raw reasoning, as gpt-oss and Chat Completions
    bridges write it), or ``None`` when there is no text."""
    if not isinstance(content, list):
        return None
    parts = [p for p in content if isinstance(p, dict) and p.get("type") == "reasoning_text"]
    texts = [p["text"] for p in parts if isinstance(p.get("text"), str)]
    return "".join(texts) if texts else None


def reasoning_text(item: Mapping[str, Any]) -> str | None:
    """A reasoning item's text: its summary, else its reasoning ``content``."""
    summary = summary_text(item.get("summary"))
    return summary if summary is not None else content_text(item.get("content"))


def _function_call_output(item: dict[str, Any], path: str) -> Turn:
    extra = {k: v for k, v in item.items() if k not in _OUTPUT_NAMED}
    call_id = take_str(item, "call_id", extra)
    if "output" in item:
        content, form = parse_parts(item["output"], at(path, "output"))
    else:
        content, form = (), "absent"
    result = ToolResult(call_id=call_id, content=content, content_form=form, extra=extra)
    return Turn("tool", (result,), form)


# --- rendering --------------------------------------------------------------


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


def _fits(entry: Mapping[str, Any], blocks: Sequence[Block]) -> bool:
    kind = entry.get("kind")
    if kind == "function_call":
        return len(blocks) == 1 and isinstance(blocks[0], ToolCall)
    if kind == "reasoning":
        return len(blocks) == 1 and isinstance(blocks[0], ThinkingBlock)
    if kind == "item":
        return len(blocks) == 1 and isinstance(blocks[0], OpaqueBlock)
    return kind == "message" and all(_is_content(b) for b in blocks)


def _is_content(block: Block) -> bool:
    return isinstance(block, TextBlock) or (
        isinstance(block, OpaqueBlock) and block.type in CONTENT_PART_TYPES
    )


def _layout(turn: Turn) -> list[tuple[Mapping[str, Any], tuple[Block, ...]]]:
    """The turn's recorded item layout when it still fits its blocks, else the natural one."""
    recorded = turn.extra.get(LAYOUT)
    if isinstance(recorded, tuple):
        pieces, position = [], 0
        for entry in recorded:
            size = entry.get("size") if isinstance(entry, Mapping) else None
            if not isinstance(size, int):
                break
            blocks = turn.blocks[position : position + size]
            if len(blocks) != size or not _fits(entry, blocks):
                break
            pieces.append((entry, blocks))
            position += size
        else:
            if position == len(turn.blocks):
                return pieces
    natural: list[tuple[Mapping[str, Any], tuple[Block, ...]]] = []
    run: list[Block] = []
    for block in turn.blocks:
        if _is_content(block):
            run.append(block)
            continue
        if run:
            natural.append(({"kind": "message"}, tuple(run)))
            run = []
        kind = {ToolCall: "function_call", ThinkingBlock: "reasoning", OpaqueBlock: "item"}.get(
            type(block)
        )
        if kind is None:
            raise WireFormatError("", "an assistant turn cannot hold a tool result")
        natural.append(({"kind": kind}, (block,)))
    if run:
        natural.append(({"kind": "message"}, tuple(run)))
    return natural


def render_assistant(turn: Turn, path: str, response: bool) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for entry, blocks in _layout(turn):
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


# --- where a block sits on the wire (for the rules' JSON paths) -----------------


def _turn_items(turn: Turn) -> int:
    if turn.role == "assistant":
        return len(_layout(turn))
    if turn.role == "tool":
        return len(turn.tool_results)
    return 1


def item_position(
    turns: Sequence[Turn], turn_index: int, block_index: int
) -> tuple[int, int | None]:
    """(index of the item holding block ``block_index`` of turn ``turn_index``
    in the rendered item list, the block's index in that item's ``content``
    or ``None`` when the item is the block itself)."""
    offset = sum(_turn_items(turn) for turn in turns[:turn_index])
    turn = turns[turn_index]
    if turn.role == "tool":
        return offset + block_index, None
    if turn.role != "assistant":
        return offset, block_index if turn.content_form == "blocks" else None
    position = 0
    for number, (entry, blocks) in enumerate(_layout(turn)):
        if block_index < position + len(blocks):
            inner = block_index - position
            return offset + number, inner if entry.get("kind") == "message" else None
        position += len(blocks)
    return offset, None
