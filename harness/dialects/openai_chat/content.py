"""Message ``content``: a string, a list of parts, null or absent.

A string is exactly one ``TextBlock`` (even ``""``); a ``{type:"text"}`` part
is a ``TextBlock`` whose other keys go to ``extra``; any other part (image_url,
input_audio, file, refusal...) is an ``OpaqueBlock`` kept whole.

Reference: https://platform.openai.com/docs/api-reference/chat/create
(messages[].content: "string or array of content parts").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.common import at, require_object, type_name
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Block, ContentForm, OpaqueBlock, TextBlock

_PART_HINT = 'a content part looks like {"type": "text", "text": "..."}'
_TEXT_NAMED = frozenset(("type", "text"))


def parse_content(message: Mapping[str, Any], path: str) -> tuple[tuple[Block, ...], ContentForm]:
    """Read ``message["content"]`` into blocks and the form it was carried in."""
    if "content" not in message:
        return (), "absent"
    content = message["content"]
    if content is None:
        return (), "null"
    if isinstance(content, str):
        return (TextBlock(content),), "string"
    content_path = at(path, "content")
    if isinstance(content, list):
        parts = [_parse_part(part, f"{content_path}[{i}]") for i, part in enumerate(content)]
        return tuple(parts), "blocks"
    raise WireFormatError(
        content_path,
        f"content must be a string, an array of parts or null, got {type_name(content)}",
    )


def _parse_part(part: Any, path: str) -> Block:
    part = require_object(part, path, "a content part", _PART_HINT)
    part_type = part.get("type")
    if not isinstance(part_type, str):
        raise WireFormatError(
            at(path, "type"), f"content part type must be a string, got {type_name(part_type)}"
        )
    if part_type != "text":
        return OpaqueBlock(type=part_type, raw=part)
    text = part.get("text")
    if not isinstance(text, str):
        raise WireFormatError(
            at(path, "text"), f"text part needs a string text, got {type_name(text)}", _PART_HINT
        )
    return TextBlock(text, extra={k: v for k, v in part.items() if k not in _TEXT_NAMED})


def content_blocks(blocks: Sequence[Block]) -> list[TextBlock | OpaqueBlock]:
    """The blocks that live in ``content`` (not thinking, calls or results)."""
    return [b for b in blocks if isinstance(b, TextBlock | OpaqueBlock)]


def render_content(blocks: Sequence[Block], form: ContentForm) -> tuple[bool, Any]:
    """(whether ``content`` is written, its value) for ``blocks`` in ``form``.

    A form that cannot hold the blocks (text under ``null``, an image under
    ``string``) falls back to the nearest form that loses nothing.
    """
    parts = content_blocks(blocks)
    if not parts and form == "absent":
        return False, None
    if not parts and form == "null":
        return True, None
    if form == "blocks":
        return True, [_render_part(p) for p in parts]
    if all(isinstance(p, TextBlock) and not p.extra for p in parts):
        return True, "".join(p.text for p in parts if isinstance(p, TextBlock))
    return True, [_render_part(p) for p in parts]


def _render_part(block: TextBlock | OpaqueBlock) -> Any:
    if isinstance(block, OpaqueBlock):
        return dict(block.raw)
    part: dict[str, Any] = {"type": "text", "text": block.text}
    for key, value in block.extra.items():
        part.setdefault(key, value)
    return part
