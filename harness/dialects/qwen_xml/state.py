"""What the Qwen XML parser holds between fragments, and how it records what it consumed.

``parser.py`` decides at each tag (the grammar and its messages); this module
keeps the results of those decisions: the offset reached, the call that is
open, the text between calls, and the segments and issues of the parse. It is
apart so that the grammar reads as one list of states.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, auto

from toolwire.harness.dialects.qwen_xml.calls import CallBuilder
from toolwire.harness.dialects.qwen_xml.result import (
    QwenParse,
    QwenSegment,
    TextSegment,
    XmlIssue,
)
from toolwire.harness.dialects.qwen_xml.schema import ToolIndex
from toolwire.harness.dialects.qwen_xml.values import preview
from toolwire.harness.model import ToolDef


class Mode(Enum):
    TEXT = auto()
    CALL_OPEN = auto()  # after <tool_call>, before <function=
    FUNCTION_NAME = auto()
    FUNCTION_BODY = auto()  # between parameters
    PARAMETER_NAME = auto()
    PARAMETER_VALUE = auto()
    TAIL = auto()  # after </function>, before </tool_call>
    SKIP = auto()  # after broken markup, up to the end of the block


class ParserState:
    """The state of one parse and the steps that consume text into it."""

    def __init__(self, tools: Sequence[ToolDef] | None) -> None:
        self._tools = ToolIndex(tools)
        self._pending = ""  # unconsumed text: at most a possible tag prefix
        self._pos = 0  # absolute offset of the next character to consume
        self._mode = Mode.TEXT
        self._text_parts: list[str] = []
        self._text_offset = 0
        self._call: CallBuilder | None = None
        self._calls_started = 0
        self._segments: list[QwenSegment] = []
        self._issues: list[XmlIssue] = []
        self._result: QwenParse | None = None

    def _take(self, piece: str, at: int) -> int:
        """Consume ``piece`` (found at ``at``) into the open call."""
        self._open().parts.append(piece)
        self._pos += len(piece)
        return at + len(piece)

    def _take_and_end(self, piece: str, at: int) -> int:
        self._take(piece, at)
        return self._end_call(at + len(piece))

    def _take_text(self, piece: str) -> None:
        self._add_text(piece, self._pos)
        self._pos += len(piece)

    def _add_text(self, piece: str, offset: int) -> None:
        if not self._text_parts:
            self._text_offset = offset
        self._text_parts.append(piece)

    def _skip(self, message: str, at: int) -> int:
        call = self._open()
        parameter = "".join(call.name_parts) if self._mode == Mode.PARAMETER_NAME else None
        call.issue("malformed_markup", message, self._pos, parameter or None)
        self._mode = Mode.SKIP
        return at

    def _open(self) -> CallBuilder:
        assert self._call is not None, "no call is open"
        return self._call

    def _begin_call(self, bare: bool) -> CallBuilder:
        self._flush_text()
        self._call = CallBuilder(self._calls_started, self._pos, bare, self._tools)
        self._calls_started += 1
        return self._call

    def _end_call(self, at: int) -> int:
        call = self._open()
        segment = call.segment()
        self._segments.append(segment)
        self._issues.extend(call.issues)
        if call.tail:  # whitespace after </function> with no </tool_call>: text
            self._add_text("".join(call.tail), call.tail_offset)
        self._call = None
        self._mode = Mode.TEXT
        return at

    def _flush_text(self) -> None:
        if not self._text_parts:
            return
        text = "".join(self._text_parts)
        self._text_parts = []
        if self._calls_started and text.strip():
            first = self._text_offset + len(text) - len(text.lstrip())
            shown = preview(text.strip())
            message = f"text after the tool calls ({shown}): the format puts text only before them"
            self._issues.append(XmlIssue("text_after_calls", message, first))
        self._segments.append(TextSegment(text, self._text_offset))
