"""What every xml rule reads: the markup calls of a source, against the oracle.

xml.*: Qwen3-Coder XML tool calls become structured calls, faithfully.

The source is a ``qwen-xml`` payload: calls written as markup in the
assistant text (WIRE.md 1.4, https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct).
The oracle is the harness's own parser (``toolwire.conformance.readings.xml_oracle``); the
output is usually openai-chat with ``tool_calls``. Each check compares the
output with that parse:

* every well-formed call is a structured call, in the order written, with
  its values typed by the tool's JSON Schema ("3" -> 3, "true" -> true);
* the text before the calls is kept and no markup is left in it;
* a malformed call is never run with partial arguments. A block whose
  arguments are whole despite its faults (a missing ``<tool_call>`` opener,
  a dropped ``</parameter>`` before the next tag, a missing required
  parameter, a value only a peer parser reads) may be run with the complete
  arguments (``xml_lenient.recovered_call``); leaving a rejected call's raw
  text in the content, or dropping it, is also accepted;
* where the real parsers split on a value (``xml_lenient``: ``TRUE``,
  ``03106``, type names outside JSON Schema, trimmed whitespace), any
  reading one of them gives is accepted (docs/rules/xml-peers.md);
* a streamed source gives the same calls and text as the same text parsed
  in one piece. For a streamed source that comparison is one verdict,
  ``xml.stream_equivalence``, in place of the per-aspect rules (a broken
  streaming parser is one problem); ``xml.malformed_executed`` still applies.

Each rule is defined, with its check, in ``xml/<name>.py``. This module holds
what several of them read: which output call stands for each well-formed call
(``call_matches``), the arguments each must arrive with and how they differ
(``expected_arguments``, ``argument_differences``: parameter_type,
stream_equivalence), the text the output may carry (``accepted_texts``:
text_preserved, stream_equivalence), the output calls that stand for a
malformed block (``attributed``: malformed_executed, stream_equivalence), and
``per_turn``, which runs a check on each source text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolwire.conformance.context import ConversionCheck, ConversionUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.xml_lenient import raw_values, tool_schema, value_alternatives
from toolwire.conformance.readings.xml_oracle import (
    OutputCall,
    XmlTurn,
    match_calls,
    normalised,
    xml_turns,
)
from toolwire.conformance.readings.xml_values import json_type, preview, same_json
from toolwire.harness.dialects.qwen_xml import RejectedCall, TextSegment
from toolwire.harness.dialects.qwen_xml.schema import parameter_schema, parameters_root
from toolwire.harness.model import ToolCall


def call_matches(turn: XmlTurn) -> list[int | None]:
    return match_calls(turn.parse.calls, [out.call for out in turn.output_calls])


def expected_arguments(turn: XmlTurn) -> list[Mapping[str, Any] | None]:
    """Per well-formed call, the typed arguments it must arrive with."""
    if turn.typed:
        return [call.arguments for call in turn.parse.calls]
    remaining = list(turn.expected_values)
    expected: list[Mapping[str, Any] | None] = []
    for call in turn.parse.calls:
        found = next((entry for entry in remaining if entry[0] == call.name), None)
        if found is not None:
            remaining.remove(found)
        expected.append(found[1] if found is not None else None)
    return expected


def _peer_reading(turn: XmlTurn | None, call: ToolCall | None, name: str, value: Any) -> bool:
    """``value`` is what one of the real parsers reads from the parameter."""
    if turn is None or call is None or not turn.typed or not call.raw_arguments:
        return False
    raw = raw_values(call.raw_arguments).get(name)
    if raw is None:
        return False
    tool = tool_schema(turn.tools, call.name)
    schema = parameter_schema(tool, name).schema if tool is not None else None
    choices = value_alternatives(raw, schema, parameters_root(tool))
    return any(same_json(choice, value) for choice in choices)


def argument_differences(
    want: Mapping[str, Any],
    got: OutputCall,
    turn: XmlTurn | None = None,
    source: ToolCall | None = None,
) -> list[str]:
    arguments = got.call.arguments
    if not isinstance(arguments, Mapping):
        reason = got.call.arguments_error or f"a JSON {json_type(arguments)}, not an object"
        return [f"its arguments are {reason}"]
    problems = []
    for name, value in want.items():
        if name not in arguments:
            problems.append(f"parameter {name!r} is missing")
        elif not same_json(value, arguments[name]) and not _peer_reading(
            turn, source, name, arguments[name]
        ):
            actual = arguments[name]
            if json_type(actual) != json_type(value):
                problems.append(
                    f"parameter {name!r} is the {json_type(actual)} {preview(actual)}; its "
                    f"schema makes it the {json_type(value)} {preview(value)}"
                )
            else:
                problems.append(
                    f"parameter {name!r} is {preview(actual)}; the XML gives {preview(value)}"
                )
    problems += [f"parameter {name!r} is not in the XML" for name in arguments if name not in want]
    return problems


def accepted_texts(turn: XmlTurn) -> set[str]:
    """The text the output may carry: all the plain text, or (when the model
    wrote text after its calls, outside the format) only the text before them."""
    before = []
    for segment in turn.parse.segments:
        if not isinstance(segment, TextSegment):
            break
        before.append(segment.text)
    return {normalised(turn.parse.text), normalised("".join(before))}


def attributed(turn: XmlTurn) -> tuple[list[tuple[RejectedCall, int]], list[int]]:
    """Output calls that are no well-formed call of the text: those standing
    for a malformed block (same name, or a block whose name was never read),
    and the others."""
    used = {m for m in call_matches(turn) if m is not None}
    leftovers = [i for i in range(len(turn.output_calls)) if i not in used]
    attributed = []
    for rejected in turn.parse.rejected:
        candidate = next(
            (
                i
                for i in leftovers
                if not rejected.name or turn.output_calls[i].call.name == rejected.name
            ),
            None,
        )
        if candidate is not None:
            leftovers.remove(candidate)
            attributed.append((rejected, candidate))
    return attributed, leftovers


def per_turn(
    check: Callable[[XmlTurn], list[Finding] | None], streams: bool = False
) -> ConversionCheck:
    """Run ``check`` on each source text. A streamed source is judged as a
    whole by xml.stream_equivalence unless ``streams`` says otherwise, so one
    broken streaming parser gives one verdict."""

    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        turns = xml_turns(conversion)
        if turns is None:
            return None
        results = [
            check(turn) if (streams or not turn.streamed) and not turn.has_literal_block else None
            for turn in turns
        ]
        if all(result is None for result in results):
            return None
        return [item for result in results if result for item in result]

    return run
