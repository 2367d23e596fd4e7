"""Incremental parser for Qwen3-Coder XML tool calls (WIRE.md 1.4).

::

    Let me check.
    <tool_call>
    <function=get_weather>
    <parameter=city>
    Beijing
    </parameter>
    </function>
    </tool_call>

The parser reads left to right and decides at each tag; when a fragment
ends in what may be the start of a tag (``<para``) it waits for more text,
so feeding any split of a text gives exactly the result of feeding it whole.
Work is linear in the input: text and values are consumed with ``str.find``
and only a possible tag prefix (at most 12 characters) is carried over.

Grammar and decisions:

* Outside calls, ``<tool_call>`` opens a call block; a bare ``<function=``
  opens one too but is reported ``missing_opener`` (Qwen3-Coder drops the
  opener after a sentence of text: ollama/ollama#18530, #16686), and the
  ``</tool_call>`` that usually still follows its ``</function>`` belongs to it.
* Inside a block only whitespace may stand between tags. One newline right
  after ``<parameter=NAME>`` and one right before ``</parameter>`` belong to
  the markup; everything else in a value is kept exactly.
* A value ends at ``</parameter>``. ``<parameter=``, ``</function>`` or
  ``</tool_call>`` inside a value mean the model dropped ``</parameter>``
  (ollama/ollama#18563): ``unclosed_tag``. Parsing goes on from that tag, so
  the following calls are still read.
* A ``<tool_call>`` inside a value opens a block that is text of the value
  (a file that holds a Qwen call, a prompt that shows one) up to its own
  ``</tool_call>``; blocks nest. If the input then ends with the value still
  open, the ``<tool_call>`` was a new call after a dropped ``</parameter>``
  instead: the value is ``unclosed_tag`` and the rest is parsed again from
  that tag (decided at ``finish()``, so a split feed parses the same).
* A new ``<tool_call>`` (or a second ``<function=``) always starts a new
  block; other broken markup makes the parser skip to ``</tool_call>``.
* A call with any issue is rejected whole, never returned with partial
  arguments. Text after the first call stays text, with ``text_after_calls``.

See ``result.py`` for the issue codes, ``values.py`` for value types and
``state.py`` for how consumed text becomes segments and issues.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from toolwire.harness.dialects.qwen_xml.calls import CallBuilder
from toolwire.harness.dialects.qwen_xml.result import QwenParse
from toolwire.harness.dialects.qwen_xml.state import Mode, ParserState
from toolwire.harness.dialects.qwen_xml.tags import (
    BODY_TAGS,
    FUNCTION_BARE,
    FUNCTION_CLOSE,
    FUNCTION_OPEN,
    NAME_STOP,
    NESTED_TAGS,
    OPEN_TAGS,
    PARAMETER_BARE,
    PARAMETER_CLOSE,
    PARAMETER_OPEN,
    SKIP_TAGS,
    SKIP_TAGS_BARE,
    TEXT_TAGS,
    TOOL_CALL_CLOSE,
    TOOL_CALL_OPEN,
    VALUE_TAGS,
    WAIT,
    WHITESPACE,
    match_tag,
    scan,
    whitespace_end,
)
from toolwire.harness.model import ToolDef


class QwenXmlParser(ParserState):
    """Feed text in fragments of any size, then ``finish()``.

    ``tools`` are the tool definitions of the request; ``None`` means they
    are not known, so names are not checked and every value stays a string.
    """

    def __init__(self, tools: Sequence[ToolDef] | None = None) -> None:
        super().__init__(tools)
        self._handlers: dict[Mode, Callable[[str, int, bool], int | None]] = {
            Mode.TEXT: self._in_text,
            Mode.CALL_OPEN: self._in_call_open,
            Mode.FUNCTION_NAME: self._in_name,
            Mode.FUNCTION_BODY: self._in_function_body,
            Mode.PARAMETER_NAME: self._in_name,
            Mode.PARAMETER_VALUE: self._in_parameter_value,
            Mode.TAIL: self._in_tail,
            Mode.SKIP: self._in_skip,
        }

    def feed(self, fragment: str) -> None:
        if self._result is not None:
            raise RuntimeError("QwenXmlParser.feed() called after finish()")
        if fragment:
            self._pending += fragment
            self._run(final=False)

    def finish(self) -> QwenParse:
        """End of input: close what is open and return the parse."""
        if self._result is None:
            self._run(final=True)
            if self._call is not None:
                self._end_of_input(self._call)
            self._flush_text()
            self._result = QwenParse(segments=tuple(self._segments), issues=tuple(self._issues))
        return self._result

    def _run(self, final: bool) -> None:
        # Each handler consumes from ``at`` and returns where it stopped, or
        # None to wait for more text. A handler that returns ``at`` unchanged
        # has switched mode, and the new mode consumes.
        text = self._pending
        at = 0
        while at < len(text):
            step = self._handlers[self._mode](text, at, final)
            if step is None:
                break
            at = step
        self._pending = text[at:]

    # -- states ----------------------------------------------------------

    def _in_text(self, text: str, at: int, final: bool) -> int | None:
        start, tag = scan(text, at, TEXT_TAGS, final)
        if start > at:
            self._take_text(text[at:start])
            return start
        if tag is None:
            return None
        call = self._begin_call(bare=tag == FUNCTION_OPEN)
        if call.bare:
            message = "<function=...> without a <tool_call> before it"
            call.issue("missing_opener", message, self._pos)
        self._mode = Mode.FUNCTION_NAME if call.bare else Mode.CALL_OPEN
        return self._take(tag, at)

    def _in_call_open(self, text: str, at: int, final: bool) -> int | None:
        if text[at] in WHITESPACE:
            return self._take(text[at : whitespace_end(text, at)], at)
        tag = match_tag(text, at, OPEN_TAGS, final)
        if tag is WAIT:
            return None
        call = self._open()
        if tag == FUNCTION_OPEN:
            call.name_parts = []
            self._mode = Mode.FUNCTION_NAME
            return self._take(tag, at)
        if tag == TOOL_CALL_CLOSE:
            message = "empty <tool_call> block: no <function=NAME> in it"
            call.issue("malformed_markup", message, self._pos)
            return self._take_and_end(tag, at)
        if tag == TOOL_CALL_OPEN:
            call.unclosed(["<tool_call>"], "the next <tool_call>", self._pos)
            return self._end_call(at)
        if tag == FUNCTION_BARE:
            return self._skip("<function> has no =NAME", at)
        found = "a tag other than <function=NAME>" if text[at] == "<" else repr(text[at])
        return self._skip(f"expected <function=NAME> after <tool_call>, found {found}", at)

    def _in_name(self, text: str, at: int, final: bool) -> int | None:
        call = self._open()
        stop = NAME_STOP.search(text, at)
        end = len(text) if stop is None else stop.start()
        if end > at:
            call.name_parts.append(text[at:end])
            return self._take(text[at:end], at)
        element = "function" if self._mode == Mode.FUNCTION_NAME else "parameter"
        if text[at] != ">":
            if element == "function":
                call.name = "".join(call.name_parts)
            return self._skip(f"the <{element}= tag is not closed by '>'", at)
        if element == "function":
            call.set_name(self._pos)
            self._mode = Mode.FUNCTION_BODY
        else:
            call.open_parameter(self._pos + 1)
            self._mode = Mode.PARAMETER_VALUE
        return self._take(">", at)

    def _in_function_body(self, text: str, at: int, final: bool) -> int | None:
        char = text[at]
        if char in WHITESPACE:
            return self._take(text[at : whitespace_end(text, at)], at)
        tag = match_tag(text, at, BODY_TAGS, final)
        if tag is WAIT:
            return None
        call = self._open()
        if tag == PARAMETER_OPEN:
            call.name_parts = []
            self._mode = Mode.PARAMETER_NAME
            return self._take(tag, at)
        if tag == FUNCTION_CLOSE:
            call.check_required(self._pos)
            self._mode = Mode.TAIL
            return self._take(tag, at)
        if tag == TOOL_CALL_CLOSE:
            call.unclosed([call.function_tag], TOOL_CALL_CLOSE, self._pos)
            return self._take_and_end(tag, at)
        if tag in (TOOL_CALL_OPEN, FUNCTION_OPEN):
            # A new call starts here (a second <function= becomes a bare call).
            call.unclosed(call.open_elements(), f"the next {tag}", self._pos)
            return self._end_call(at)
        if tag == PARAMETER_CLOSE:
            message = "stray </parameter>: no <parameter=NAME> is open"
        elif tag == PARAMETER_BARE:
            message = "<parameter> has no =NAME"
        elif char == "<":
            message = (
                f"unexpected tag inside {call.function_tag}: only <parameter=NAME> belongs there"
            )
        else:
            message = f"text inside {call.function_tag} outside any <parameter=NAME>: {char!r}"
        return self._skip(message, at)

    def _in_parameter_value(self, text: str, at: int, final: bool) -> int | None:
        call = self._open()
        start, tag = scan(text, at, NESTED_TAGS if call.nested else VALUE_TAGS, final)
        if start > at:
            call.value_parts.append(text[at:start])
            return self._take(text[at:start], at)
        if tag is None:
            return None
        if tag == TOOL_CALL_OPEN or call.nested:
            # A literal call block inside the value is text of the value.
            if call.literal_from is None:
                call.literal_from = (len(call.parts), self._pos)
            call.nested += 1 if tag == TOOL_CALL_OPEN else -1
            call.value_parts.append(tag)
            return self._take(tag, at)
        if tag == PARAMETER_CLOSE:
            call.close_parameter()
            self._mode = Mode.FUNCTION_BODY
            return self._take(tag, at)
        # The model dropped </parameter> (ollama/ollama#18563): report it, drop
        # the value and go on from the tag that interrupted it.
        parameter = f"<parameter={call.parameter}>"
        if tag == PARAMETER_OPEN:
            call.unclosed([parameter], "the next <parameter=NAME>", self._pos)
            call.parameter = None
            self._mode = Mode.FUNCTION_BODY
            return at
        if tag == FUNCTION_CLOSE:
            call.unclosed([parameter], FUNCTION_CLOSE, self._pos)
            call.parameter = None
            self._mode = Mode.TAIL
            return self._take(tag, at)
        call.unclosed([parameter, call.function_tag], TOOL_CALL_CLOSE, self._pos)
        return self._take_and_end(tag, at)

    def _in_tail(self, text: str, at: int, final: bool) -> int | None:
        call = self._open()
        char = text[at]
        if char in WHITESPACE:
            end = whitespace_end(text, at)
            if not call.tail:
                call.tail_offset = self._pos
            call.tail.append(text[at:end])
            self._pos += end - at
            return end
        tag = match_tag(text, at, (TOOL_CALL_CLOSE,), final)
        if tag is WAIT:
            return None
        if tag == TOOL_CALL_CLOSE:
            call.parts.extend(call.tail)
            call.tail = []
            return self._take_and_end(tag, at)
        if not call.bare:
            found = "a tag" if char == "<" else repr(char)
            call.unclosed(["<tool_call>"], f"{found} after </function>", self._pos)
        return self._end_call(at)

    def _in_skip(self, text: str, at: int, final: bool) -> int | None:
        call = self._open()
        start, tag = scan(text, at, SKIP_TAGS_BARE if call.bare else SKIP_TAGS, final)
        if start > at:
            return self._take(text[at:start], at)
        if tag is None:
            return None
        if tag == TOOL_CALL_OPEN:
            return self._end_call(at)
        if tag == FUNCTION_CLOSE:
            self._mode = Mode.TAIL
            return self._take(tag, at)
        return self._take_and_end(tag, at)

    def _end_of_input(self, call: CallBuilder) -> None:
        if self._mode == Mode.PARAMETER_VALUE and call.literal_from is not None:
            self._reread_literal(call, *call.literal_from)
            return
        end = "the end of the input"
        tool_call = [] if call.bare else ["<tool_call>"]
        mode = self._mode
        if mode == Mode.CALL_OPEN:
            call.unclosed(["<tool_call>"], end, self._pos)
        elif mode == Mode.FUNCTION_NAME:
            call.name = "".join(call.name_parts)
            call.unclosed(["the <function= tag", *tool_call], end, self._pos)
        elif mode == Mode.FUNCTION_BODY:
            call.unclosed(call.open_elements(), end, self._pos)
        elif mode == Mode.PARAMETER_NAME:
            call.unclosed(call.open_elements("the <parameter= tag"), end, self._pos)
        elif mode == Mode.PARAMETER_VALUE:
            call.unclosed(call.open_elements(f"<parameter={call.parameter}>"), end, self._pos)
        elif mode == Mode.SKIP:
            call.unclosed(["<function=...>"] if call.bare else tool_call, end, self._pos)
        elif mode == Mode.TAIL and not call.bare:
            call.unclosed(tool_call, end, self._pos)
        self._end_call(self._pos)

    def _reread_literal(self, call: CallBuilder, part: int, offset: int) -> None:
        """The value never closed: its first <tool_call> started a new call."""
        rest = "".join(call.parts[part:])
        call.parts = call.parts[:part]
        self._pos = offset
        parameter = f"<parameter={call.parameter}>"
        call.unclosed(call.open_elements(parameter), "the next <tool_call>", offset)
        self._end_call(0)
        self._pending = rest
        self._run(final=True)
        if self._call is not None:
            self._end_of_input(self._call)


def parse_qwen_xml(text: str, tools: Sequence[ToolDef] | None = None) -> QwenParse:
    """Parse a whole assistant text (the same as feeding it in one piece)."""
    parser = QwenXmlParser(tools)
    parser.feed(text)
    return parser.finish()
