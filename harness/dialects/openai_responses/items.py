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
* any other item (``item_reference``, ``computer_call_output``, a client's
  ``tool_search_output``...) is a ``Turn(role="item")`` holding it as an
  ``OpaqueBlock``; an ``*_output`` item the server wrote (``"execution":
  "server"``) and a ``program`` item are model-side, in the assistant turn.

An assistant turn remembers where its items began and ended (the private
``_items`` layout in ``Turn.extra``, never written to the wire), so that
``render(parse(p)) == p``; a turn built by code gets the natural layout: a
run of text is one message item, each call and each reasoning block its own.

This module reads items; ``render_items.py`` writes them and ``layout.py``
holds the layout both use (and the block positions the rules' paths need).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    decode_arguments,
    require_list,
    require_object,
    take_str,
    type_name,
)
from toolwire.harness.dialects.openai_responses.content import parse_parts
from toolwire.harness.dialects.openai_responses.layout import LAYOUT
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Block,
    OpaqueBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)

PRIVATE_PREFIX = "_"
_ITEM_HINT = 'an input item looks like {"role": "user", "content": "..."} or {"type": "...", ...}'
_MODEL_SIDE = frozenset(("mcp_list_tools", "mcp_approval_request", "compaction", "program"))
_CALL_NAMED = frozenset(("call_id", "id", "name", "arguments"))
_REASONING_NAMED = frozenset(("id", "encrypted_content"))
_OUTPUT_NAMED = frozenset(("call_id", "output"))


def public(extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra`` without the codec's private keys."""
    return {k: v for k, v in extra.items() if not k.startswith(PRIVATE_PREFIX)}


def is_model_side(kind: str, item: Mapping[str, Any] | None = None) -> bool:
    """An item the model or the server produces: a hosted-tool call
    (``web_search_call``, ``mcp_call``...), a ``program``, and an ``*_output``
    item the server itself wrote (``"execution": "server"``, as a hosted
    ``tool_search_output`` is). The client's own ``*_output`` items (a
    ``tool_search_output`` with ``"execution": "client"``) answer a call."""
    if kind.endswith("_output"):
        return item is not None and item.get("execution") == "server"
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
        elif output or is_model_side(kind, item):
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
