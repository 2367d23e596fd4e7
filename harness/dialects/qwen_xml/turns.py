"""Assistant turns between the openai-chat shape and the qwen-xml shape.

On the wire a Qwen3-Coder model served without a tool parser is plain
openai-chat: its calls are XML text in ``message.content``. Parsing replaces
that text's ``TextBlock`` with the blocks of ``parse_qwen_xml``: text,
``ToolCall`` s (``raw_arguments`` = the exact markup, ``id`` None: the markup
carries none) and, for calls that must not run,
``OpaqueBlock(type="qwen_xml_rejected_call", raw={"text", "name", "issues"})``.

Rendering joins those blocks back into one content string. Which calls go
into the text: a ``ToolCall`` whose ``raw_arguments`` is Qwen markup, and a
code-built one (``raw_arguments`` None, written in the canonical form of the
Qwen3-Coder chat template). A call whose ``raw_arguments`` is other text
(JSON from a native ``tool_calls`` entry, which a chat template also
accepts in requests) stays in ``tool_calls``.

Only assistant turns whose content is a string are parsed; content given as
a list of parts is left as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from toolwire.harness.dialects.qwen_xml.parser import parse_qwen_xml
from toolwire.harness.dialects.qwen_xml.result import CallSegment, QwenParse, TextSegment, XmlIssue
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Block, OpaqueBlock, TextBlock, ToolCall, ToolDef, Turn

REJECTED_CALL = "qwen_xml_rejected_call"
_MARKUP_STARTS = ("<tool_call>", "<function=")


def parse_turn(turn: Turn, tools: Sequence[ToolDef] | None) -> Turn:
    """Read the Qwen markup in an assistant turn's string content."""
    if turn.role != "assistant" or turn.content_form != "string":
        return turn
    blocks: list[Block] = []
    for block in turn.blocks:
        if isinstance(block, TextBlock) and not block.extra:
            blocks.extend(parse_blocks(parse_qwen_xml(block.text, tools)))
        else:
            blocks.append(block)
    return replace(turn, blocks=tuple(blocks))


def parse_blocks(parse: QwenParse) -> list[Block]:
    blocks: list[Block] = []
    for segment in parse.segments:
        if isinstance(segment, TextSegment):
            blocks.append(TextBlock(segment.text))
        elif isinstance(segment, CallSegment):
            blocks.append(segment.call)
        else:
            raw = {
                "text": segment.raw,
                "name": segment.name,
                "issues": [_issue_json(issue) for issue in segment.issues],
            }
            blocks.append(OpaqueBlock(type=REJECTED_CALL, raw=raw))
    return blocks


def _issue_json(issue: XmlIssue) -> dict[str, Any]:
    return {
        "code": issue.code,
        "message": issue.message,
        "offset": issue.offset,
        "parameter": issue.parameter,
    }


def is_text_call(call: ToolCall) -> bool:
    """Whether ``call`` is written as Qwen markup in the content."""
    raw = call.raw_arguments
    return raw is None or raw.startswith(_MARKUP_STARTS)


def _is_content_piece(block: Block) -> bool:
    if isinstance(block, ToolCall):
        return is_text_call(block)
    if isinstance(block, OpaqueBlock):
        return block.type == REJECTED_CALL
    return isinstance(block, TextBlock) and not block.extra


def unparse_turn(turn: Turn, path: str) -> Turn:
    """Fold the text, calls and rejected calls of an assistant turn back into
    one ``TextBlock`` (at the place of the first of them), ready for the
    openai-chat codec. Other blocks keep their places."""
    if turn.role != "assistant":
        return turn
    has_markup = any(_is_content_piece(b) and not isinstance(b, TextBlock) for b in turn.blocks)
    if turn.content_form != "string" and not has_markup:
        return turn  # parts, null or absent content without calls: openai-chat's job
    text: list[str] = []
    blocks: list[Block] = []
    slot: int | None = None  # where the joined text goes
    for position, block in enumerate(turn.blocks):
        if not _is_content_piece(block):
            blocks.append(block)
            continue
        before = next((piece for piece in reversed(text) if piece), "")
        text.append(_piece_text(block, before, f"{path}.blocks[{position}]"))
        if slot is None:
            slot = len(blocks)
            blocks.append(block)
    if slot is None:
        return turn
    blocks[slot] = TextBlock("".join(text))
    return replace(turn, blocks=tuple(blocks), content_form="string")


def _piece_text(block: Block, before: str, path: str) -> str:
    """The text of one piece; ``before`` is the last non-empty piece so far."""
    if isinstance(block, TextBlock):
        return block.text
    if isinstance(block, OpaqueBlock):
        text = block.raw.get("text")
        if not isinstance(text, str):
            raise WireFormatError(
                path, "a qwen_xml_rejected_call block needs its raw text under raw['text']"
            )
        return text
    assert isinstance(block, ToolCall)
    if block.raw_arguments is not None:
        return block.raw_arguments
    # The chat template writes a newline between text and the first call.
    separator = "\n" if before and not before.endswith("\n") else ""
    return separator + render_call_xml(block, path)


def render_call_xml(call: ToolCall, path: str = "") -> str:
    """The canonical markup of a call, as the Qwen3-Coder chat template
    writes it: strings raw, other values as JSON."""
    name = call.name
    if not name or any(c in name for c in "<>\n\r"):
        raise WireFormatError(
            path, f"tool name {name!r} cannot be written as <function=NAME>", "name the tool"
        )
    if not isinstance(call.arguments, Mapping):
        raise WireFormatError(
            path,
            f"Qwen XML needs the arguments of {name!r} as an object, "
            f"got {type(call.arguments).__name__}",
            "pass a dict of parameter values",
        )
    lines = ["<tool_call>", f"<function={name}>"]
    for key, value in call.arguments.items():
        written = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if not isinstance(key, str) or any(c in key for c in "<>\n\r") or not key:
            raise WireFormatError(path, f"parameter name {key!r} cannot be written in Qwen XML")
        if "</parameter>" in written:
            raise WireFormatError(
                path,
                f"the value of {key!r} contains </parameter>, which Qwen XML cannot carry",
            )
        lines += [f"<parameter={key}>", written, "</parameter>"]
    lines += ["</function>", "</tool_call>"]
    return "\n".join(lines)
