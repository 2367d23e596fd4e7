"""The oracle side of the xml rules: what a Qwen3-Coder text really says.

The source's assistant text is rebuilt exactly from its parsed blocks (the
qwen-xml codec keeps every character: text, the markup of each call, the
raw text of each rejected call) and parsed again by the harness's own
parser, ``toolwire.harness.dialects.qwen_xml.parse_qwen_xml``, with the tools in
force, so values are typed by their JSON Schema (WIRE.md 1.4). The output's
structured calls and text are then set beside that parse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.conformance.context import ConversionUnderTest
from toolwire.conformance.readings.paths import (
    block_path,
    response_block_path,
    response_message_path,
    turn_path,
)
from toolwire.conformance.readings.timeline import ASSISTANT_ROLES
from toolwire.conformance.readings.xml_values import same_json
from toolwire.harness.dialects.qwen_xml import REJECTED_CALL, QwenParse, parse_qwen_xml
from toolwire.harness.model import (
    QWEN_XML,
    Conversation,
    OpaqueBlock,
    Response,
    TextBlock,
    ToolCall,
    ToolDef,
    Turn,
)

MARKUP_STARTS = ("<tool_call>", "<function=")
MARKUP_TAGS = ("<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=")


def is_markup_call(call: ToolCall) -> bool:
    return call.raw_arguments is not None and call.raw_arguments.startswith(MARKUP_STARTS)


def assistant_markup_text(turn: Turn) -> str:
    """The assistant text exactly as the model wrote it, markup included."""
    parts = []
    for block in turn.blocks:
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif isinstance(block, ToolCall) and is_markup_call(block):
            parts.append(block.raw_arguments or "")
        elif isinstance(block, OpaqueBlock) and block.type == REJECTED_CALL:
            text = block.raw.get("text")
            parts.append(text if isinstance(text, str) else "")
    return "".join(parts)


@dataclass(frozen=True)
class OutputCall:
    call: ToolCall
    path: str


@dataclass(frozen=True)
class XmlTurn:
    """One source assistant text and the output message it became."""

    source_path: str
    parse: QwenParse
    tools: tuple[ToolDef, ...] | None
    # Expected argument values by call name when no tool schemas are known
    # (the case's `expect.tool_calls`).
    expected_values: tuple[tuple[str, Mapping[str, Any]], ...]
    output_path: str
    output_calls: tuple[OutputCall, ...]
    output_text: str
    streamed: bool

    @property
    def typed(self) -> bool:
        return self.tools is not None

    @property
    def has_literal_block(self) -> bool:
        """A call holds a literal <tool_call> block in a value. The real
        parsers split on it (Qwen's and vLLM's regexes cut the value at the
        inner </tool_call>), so no rule judges such a text at MUST."""
        return any((c.raw_arguments or "").count("<tool_call>") > 1 for c in self.parse.calls)

    @property
    def has_markup(self) -> bool:
        return bool(self.parse.calls or self.parse.rejected)


def _output_calls(
    payload: Conversation | Response, turn: Turn, index: int | None
) -> tuple[OutputCall, ...]:
    calls = []
    for b, block in enumerate(turn.blocks):
        if not isinstance(block, ToolCall):
            continue
        if isinstance(payload, Response):
            path = response_block_path(payload.dialect, turn, b)
        else:
            assert index is not None
            path = block_path(payload, index, b)
        calls.append(OutputCall(block, path))
    return tuple(calls)


def _expected_values(expect: Mapping[str, Any]) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    values = []
    for entry in expect.get("tool_calls") or ():
        name = entry.get("name") if isinstance(entry, Mapping) else getattr(entry, "name", None)
        arguments = (
            entry.get("arguments")
            if isinstance(entry, Mapping)
            else getattr(entry, "arguments", None)
        )
        if isinstance(name, str) and isinstance(arguments, Mapping):
            values.append((name, arguments))
    return tuple(values)


def xml_turns(conversion: ConversionUnderTest) -> list[XmlTurn] | None:
    """The source's assistant texts with markup, each beside its output message.

    None when the rules do not apply: the source is not qwen-xml, or the
    output is qwen-xml again (its markup is still text for its own parser).
    """
    source, output = conversion.source, conversion.output
    if source.dialect != QWEN_XML or output.dialect == QWEN_XML:
        return None
    source_payload = source.conversation or source.response
    output_payload = output.conversation or output.response
    if source_payload is None or output_payload is None:
        return None
    tools = source.tools
    if tools is None and isinstance(source_payload, Conversation):
        tools = source_payload.tools
    pairs = _paired_turns(source_payload, output_payload)
    streamed = source.stream is not None
    expected = _expected_values(conversion.expect) if isinstance(source_payload, Response) else ()
    found = []
    for source_turn, source_path, output_turn, output_index, output_path in pairs:
        parse = parse_qwen_xml(assistant_markup_text(source_turn), tools)
        found.append(
            XmlTurn(
                source_path=source_path,
                parse=parse,
                tools=tuple(tools) if tools is not None else None,
                expected_values=expected,
                output_path=output_path,
                output_calls=_output_calls(output_payload, output_turn, output_index),
                output_text=output_turn.text,
                streamed=streamed,
            )
        )
    found = [turn for turn in found if turn.has_markup]
    return found or None


def _paired_turns(
    source: Conversation | Response, output: Conversation | Response
) -> list[tuple[Turn, str, Turn, int | None, str]]:
    if isinstance(source, Response):
        if not isinstance(output, Response):
            return []
        return [
            (
                source.message,
                response_message_path(source.dialect),
                output.message,
                None,
                response_message_path(output.dialect),
            )
        ]
    if not isinstance(output, Conversation):
        return []
    sources = [(t, turn) for t, turn in enumerate(source.turns) if turn.role in ASSISTANT_ROLES]
    outputs = [(t, turn) for t, turn in enumerate(output.turns) if turn.role in ASSISTANT_ROLES]
    return [
        (s_turn, turn_path(s), o_turn, o, turn_path(o))
        for (s, s_turn), (o, o_turn) in zip(sources, outputs, strict=False)
    ]


def match_calls(expected: Sequence[ToolCall], output: Sequence[ToolCall]) -> list[int | None]:
    """For each expected call, the index of the output call it became.

    First the calls with the same name and the same arguments, then the
    remaining ones by name, each output call used once, in order.
    """
    matched: list[int | None] = [None] * len(expected)
    used: set[int] = set()
    for exact in (True, False):
        for e, want in enumerate(expected):
            if matched[e] is not None:
                continue
            for o, got in enumerate(output):
                if o in used or got.name != want.name:
                    continue
                if exact and not same_json(want.arguments, got.arguments):
                    continue
                matched[e] = o
                used.add(o)
                break
    return matched


def leftover_markup(output_text: str, parse: QwenParse) -> list[str]:
    """Markup tags in the output text that the source's plain text does not hold.

    The raw text of a rejected call may stay in the text (the converter shows
    it rather than running it), so it is taken out before counting.
    """
    remaining = output_text
    for rejected in parse.rejected:
        remaining = remaining.replace(rejected.raw, "")
    return [tag for tag in MARKUP_TAGS if remaining.count(tag) > parse.text.count(tag)]


def text_without_rejected(output_text: str, parse: QwenParse) -> str:
    for rejected in parse.rejected:
        output_text = output_text.replace(rejected.raw, "")
    return output_text


def normalised(text: str) -> str:
    """Text with whitespace runs collapsed: converters re-join the text
    around the calls differently, which is not a loss."""
    return " ".join(text.split())
