"""How a Responses stream's statements of one item are compared and named
in its issues: what an item says (``essence``), field by field
(``item_fields``), and the names and counts the messages use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.harness.dialects.openai_responses.items import reasoning_text


def essence(item: Any) -> Any:
    """What an item says, for comparing the ways a stream states it."""
    if not isinstance(item, dict):
        return item
    kind = item.get("type")
    if kind == "message":
        content = item.get("content")
        parts = content if isinstance(content, list) else []
        texts = [p.get("text", p.get("refusal")) for p in parts if isinstance(p, dict)]
        return (kind, item.get("id"), texts)
    if kind == "function_call":
        return (kind, item.get("call_id"), item.get("name"), item.get("arguments"))
    if kind == "reasoning":
        return (kind, item.get("id"), reasoning_text(item))
    return (kind, item.get("id"))


def item_fields(item: Any) -> dict[str, Any]:
    """The fields ``essence`` compares, by name, for naming the one that differs."""
    if not isinstance(item, dict):
        return {"item": item}
    kind = item.get("type")
    fields: dict[str, Any] = {"type": kind}
    if kind == "message":
        fields["id"] = item.get("id")
        content = item.get("content")
        parts = [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []
        fields["content"] = f"{len(parts)} parts"
        for n, part in enumerate(parts):
            name = "text" if "text" in part or "refusal" not in part else "refusal"
            fields[f"content[{n}].{name}"] = part.get("text", part.get("refusal"))
    elif kind == "function_call":
        fields.update(call_id=item.get("call_id"), name=item.get("name"))
        fields["arguments"] = item.get("arguments")
    elif kind == "reasoning":
        fields.update(id=item.get("id"), summary=reasoning_text(item))
    else:
        fields["id"] = item.get("id")
    return fields


def first_field_difference(said: Any, built: Any) -> tuple[str, Any, Any]:
    """The first field two statements of one item disagree on, with both values."""
    said_fields, built_fields = item_fields(said), item_fields(built)
    for name in (*said_fields, *(n for n in built_fields if n not in said_fields)):
        if said_fields.get(name) != built_fields.get(name):
            return name, said_fields.get(name), built_fields.get(name)
    return "item", said, built  # unreachable while _fields covers _essence


def item_name(item: Any, index: int) -> str:
    item_id = item.get("id") if isinstance(item, dict) else None
    return f"item {item_id!r} at output_index {index}" if item_id else f"output_index {index}"


def count_items(items: int) -> str:
    return f"{items} item" if items == 1 else f"{items} items"


def kinds(items: Sequence[Any]) -> str:
    return ", ".join(
        f"{item.get('type')} {item.get('id') or item.get('call_id') or ''}".strip()
        if isinstance(item, dict)
        else repr(item)
        for item in items
    )
