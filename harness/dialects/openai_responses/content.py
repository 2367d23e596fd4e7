"""Message content and tool outputs of the Responses API.

A message item's ``content`` is a string or a list of parts. Text parts
(``input_text`` in user, system and developer messages, ``output_text`` in
assistant messages) are ``TextBlock`` s whose other keys (``type``,
``annotations``, ``logprobs``) stay in ``extra``; any other part
(``input_image``, ``input_file``, ``refusal``...) is an ``OpaqueBlock`` kept
whole. A ``function_call_output``'s ``output`` is a string or a list of the
same input parts.

References: https://platform.openai.com/docs/api-reference/responses/create
(input items: input message, output message, function tool call output).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.common import at, require_object, type_name
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Block, ContentForm, OpaqueBlock, TextBlock

TEXT_PARTS = frozenset(("input_text", "output_text"))
# Part types that live inside a message's content (the rest of an assistant
# output are items of their own).
CONTENT_PART_TYPES = frozenset(
    ("input_text", "output_text", "refusal", "input_image", "input_file", "input_audio")
)
_PART_HINT = 'a content part looks like {"type": "input_text", "text": "..."}'


def parse_parts(value: Any, path: str) -> tuple[tuple[Block, ...], ContentForm]:
    """A ``content`` or ``output`` value -> (blocks, how it was carried)."""
    if value is None:
        return (), "null"
    if isinstance(value, str):
        return (TextBlock(value),), "string"
    if isinstance(value, list):
        return tuple(_parse_part(part, at(path, i)) for i, part in enumerate(value)), "blocks"
    raise WireFormatError(
        path, f"must be a string or an array of content parts, got {type_name(value)}"
    )


def _parse_part(part: Any, path: str) -> Block:
    part = require_object(part, path, "a content part", _PART_HINT)
    part_type = part.get("type")
    if not isinstance(part_type, str):
        raise WireFormatError(
            at(path, "type"), f"a content part needs a string type, got {type_name(part_type)}"
        )
    if part_type not in TEXT_PARTS:
        return OpaqueBlock(type=part_type, raw=part)
    text = part.get("text")
    if not isinstance(text, str):
        raise WireFormatError(
            at(path, "text"), f"{part_type} needs a string text, got {type_name(text)}"
        )
    return TextBlock(text, extra={k: v for k, v in part.items() if k != "text"})


def render_parts(
    blocks: Sequence[Block], form: ContentForm, text_type: str, with_annotations: bool = False
) -> Any:
    """Blocks -> a ``content`` / ``output`` value in ``form`` (a string when
    the form says so and the blocks are plain text). Code-built text parts get
    ``text_type`` (and ``annotations: []`` in response output, which the
    Response object always carries)."""
    if form == "null" and not blocks:
        return None
    plain = all(isinstance(b, TextBlock) and not b.extra for b in blocks)
    if form in ("string", "absent", "null") and plain:
        return "".join(b.text for b in blocks if isinstance(b, TextBlock))
    parts: list[Any] = []
    for block in blocks:
        if isinstance(block, OpaqueBlock):
            parts.append(dict(block.raw))
        elif isinstance(block, TextBlock):
            part: dict[str, Any] = {"type": text_type, "text": block.text}
            if with_annotations and not block.extra:
                part["annotations"] = []
            for key, value in block.extra.items():
                part[key] = value
            part["text"] = block.text
            parts.append(part)
    return parts
