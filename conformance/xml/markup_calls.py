"""xml.*: Qwen3-Coder XML tool calls become structured calls, faithfully.

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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadCheck,
    RoundTripCheck,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_lenient import (
    accepted_arguments,
    raw_values,
    recovered_call,
    tool_schema,
    value_alternatives,
)
from toolwire.conformance.readings.xml_oracle import (
    OutputCall,
    XmlTurn,
    leftover_markup,
    match_calls,
    normalised,
    text_without_rejected,
    xml_turns,
)
from toolwire.conformance.readings.xml_values import json_type, preview, same_json
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.harness.dialects.qwen_xml import RejectedCall, TextSegment
from toolwire.harness.dialects.qwen_xml.schema import parameter_schema, parameters_root
from toolwire.harness.model import ToolCall

CALL_NOT_PARSED = rule(
    "xml.call_not_parsed",
    "MUST",
    "conversion",
    "Every well-formed Qwen XML tool call becomes a structured tool call; none is left "
    "in the text.",
    QWEN_CODER,
    evidence=(means(QWEN_CODER, "Qwen3-Coder writes tool calls as <tool_call><function=...> XML"),),
    fix=(
        "Parse every complete `<tool_call><function=...>` block into a structured tool call, "
        "remove its markup from the content, and answer finish_reason tool_calls."
    ),
)


PARAMETER_TYPE = rule(
    "xml.parameter_type",
    "MUST",
    "conversion",
    "Each XML parameter value is converted by the type in the tool's JSON Schema.",
    QWEN_CODER,
    evidence=(
        means(QWEN_CODER, "Qwen's own parser converts each parameter by the tool's schema type"),
    ),
    fix=(
        "Convert each `<parameter=...>` value by the type the tool's JSON Schema gives it "
        "(integer, number, boolean, object, array); keep strings as written."
    ),
)


TEXT_PRESERVED = rule(
    "xml.text_preserved",
    "MUST",
    "conversion",
    "Text before the calls is kept and the markup removed.",
    QWEN_CODER,
    evidence=(
        means(QWEN_CODER, "text before <tool_call> is the message content; the markup is not"),
    ),
    fix=(
        "Keep the text written before the first `<tool_call>` as the message content, "
        "without the XML markup."
    ),
)


CALL_ORDER = rule(
    "xml.call_order",
    "MUST",
    "conversion",
    "Several XML calls become structured calls in the order written.",
    QWEN_CODER,
    evidence=(means(QWEN_CODER, "several <tool_call> blocks are calls in that order"),),
    fix=("Emit the structured calls in the order the XML blocks are written."),
)


MALFORMED_EXECUTED = rule(
    "xml.malformed_executed",
    "MUST",
    "conversion",
    "A malformed XML call is never turned into an executable call with partial arguments.",
    QWEN_CODER,
    evidence=(means(QWEN_CODER, "only a complete <tool_call>...</tool_call> block is a call"),),
    fix=(
        "Turn only complete `<tool_call>...</tool_call>` blocks into calls; leave a truncated "
        "or malformed one as text, never a call with the arguments read so far."
    ),
)


STREAM_EQUIVALENCE = rule(
    "xml.stream_equivalence",
    "MUST",
    "conversion",
    "A streamed XML output gives the same calls and text as the same output in one piece.",
    QWEN_CODER,
    evidence=(means(QWEN_CODER, "a streamed output is the same text as the output in one piece"),),
    fix=(
        "Make the streaming parser give the same calls and text as the parser of the whole "
        "output: buffer a possible `<tool_call>` start, and flush text before it."
    ),
)


def _matches(turn: XmlTurn) -> list[int | None]:
    return match_calls(turn.parse.calls, [out.call for out in turn.output_calls])


def check_call_not_parsed(turn: XmlTurn) -> list[Finding] | None:
    """Every well-formed call of the text is among the output's structured calls."""
    if not turn.parse.calls:
        return None
    found = []
    for number, (call, match) in enumerate(zip(turn.parse.calls, _matches(turn), strict=True)):
        if match is not None:
            continue
        left = f"<function={call.name}>" in turn.output_text
        where = f"its markup is still in the text at {turn.output_path}" if left else "it is lost"
        found.append(
            finding(
                "xml.call_not_parsed",
                f"XML call #{number + 1} ({call.name}) of {turn.source_path} is not among the "
                f"output's tool calls: {where}",
                turn.output_path,
                expected={"name": call.name, "arguments": call.arguments},
                actual=[out.call.name for out in turn.output_calls],
            )
        )
    return found


def _expected_arguments(turn: XmlTurn) -> list[Mapping[str, Any] | None]:
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


def _argument_differences(
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


def check_parameter_type(turn: XmlTurn) -> list[Finding] | None:
    """Each value arrives converted by the type its JSON Schema gives it."""
    pairs = [
        (want, turn.output_calls[match], call)
        for call, want, match in zip(
            turn.parse.calls, _expected_arguments(turn), _matches(turn), strict=True
        )
        if want is not None and match is not None
    ]
    if not any(want or got.call.arguments for want, got, _ in pairs):
        return None  # no parameter written or received: no value to type
    found = []
    for want, got, call in pairs:
        for problem in _argument_differences(want, got, turn, call):
            found.append(
                finding(
                    "xml.parameter_type",
                    f"the call to {call.name} at {got.path}: {problem}",
                    got.path,
                    expected=dict(want),
                    actual=got.call.arguments,
                )
            )
    return found


def _accepted_texts(turn: XmlTurn) -> set[str]:
    """The text the output may carry: all the plain text, or (when the model
    wrote text after its calls, outside the format) only the text before them."""
    before = []
    for segment in turn.parse.segments:
        if not isinstance(segment, TextSegment):
            break
        before.append(segment.text)
    return {normalised(turn.parse.text), normalised("".join(before))}


def check_text_preserved(turn: XmlTurn) -> list[Finding] | None:
    """The text around the calls is kept, and no markup is left in it."""
    if not (turn.parse.text.strip() or turn.has_markup or turn.output_text.strip()):
        return None  # no text and no markup on either side: nothing to keep
    found = []
    # A well-formed call the output did not parse, left in the text, is
    # xml.call_not_parsed's to report; judge the text without it, so one
    # defect gives one code. (Markup left beside a parsed call stays a finding.)
    output_text = turn.output_text
    for call, match in zip(turn.parse.calls, _matches(turn), strict=True):
        if match is None and call.raw_arguments:
            output_text = output_text.replace(call.raw_arguments, "", 1)
    kept = text_without_rejected(output_text, turn.parse)
    if normalised(kept) not in _accepted_texts(turn):
        found.append(
            finding(
                "xml.text_preserved",
                f"the text of {turn.source_path} is {preview(turn.parse.text.strip())} without "
                f"its markup; the output at {turn.output_path} carries {preview(kept.strip())}",
                turn.output_path,
                expected=turn.parse.text.strip(),
                actual=kept.strip(),
            )
        )
    tags = leftover_markup(output_text, turn.parse)
    if tags:
        found.append(
            finding(
                "xml.text_preserved",
                f"the output text at {turn.output_path} still holds tool-call markup "
                f"({', '.join(tags)})",
                turn.output_path,
                expected="no markup",
                actual=turn.output_text,
            )
        )
    return found


def check_call_order(turn: XmlTurn) -> list[Finding] | None:
    """Several calls keep the order they were written in."""
    placed = [
        (call, m) for call, m in zip(turn.parse.calls, _matches(turn), strict=True) if m is not None
    ]
    if len(placed) < 2:
        return None
    written = [call.name for call, _ in placed]
    output_order = [call.name for call, _ in sorted(placed, key=lambda item: item[1])]
    if [m for _, m in placed] == sorted(m for _, m in placed):
        return []
    return [
        finding(
            "xml.call_order",
            f"the XML of {turn.source_path} calls {', '.join(map(str, written))} in that order; "
            f"the output at {turn.output_path} has {', '.join(map(str, output_order))}",
            turn.output_path,
            expected=written,
            actual=output_order,
        )
    ]


def _recovery_ok(rejected: RejectedCall, call: ToolCall, turn: XmlTurn) -> bool:
    recovered = recovered_call(rejected, turn.tools)
    if recovered is None or recovered.name != call.name:
        return False
    if turn.typed:
        tool = tool_schema(turn.tools, call.name)
        return accepted_arguments(recovered.raw_arguments or "", call.arguments, tool) == []
    # No schemas: the values cannot be typed here, so the parameter names decide.
    return isinstance(call.arguments, Mapping) and set(call.arguments) == set(recovered.arguments)


def _attributed(turn: XmlTurn) -> tuple[list[tuple[RejectedCall, int]], list[int]]:
    """Output calls that are no well-formed call of the text: those standing
    for a malformed block (same name, or a block whose name was never read),
    and the others."""
    used = {m for m in _matches(turn) if m is not None}
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


def check_malformed_executed(turn: XmlTurn) -> list[Finding] | None:
    """No output call stands for a malformed block (except a complete recovery)."""
    if not turn.parse.rejected:
        return None
    found = []
    for rejected, index in _attributed(turn)[0]:
        out = turn.output_calls[index]
        if _recovery_ok(rejected, out.call, turn):
            continue
        issue = rejected.issues[0]
        found.append(
            finding(
                "xml.malformed_executed",
                f"the XML call to {rejected.name!r} at offset {rejected.offset} of "
                f"{turn.source_path} is malformed ({issue.code}: {issue.message}), but the output "
                f"runs it at {out.path} with arguments {preview(out.call.arguments)}",
                out.path,
                expected=None,
                actual={"name": out.call.name, "arguments": out.call.arguments},
            )
        )
    return found


def _text_kept(turn: XmlTurn) -> bool:
    kept = normalised(text_without_rejected(turn.output_text, turn.parse))
    return kept in _accepted_texts(turn) and not leftover_markup(turn.output_text, turn.parse)


def _equivalent_calls(turn: XmlTurn) -> bool:
    """The output has the well-formed calls of the one-piece parse, in order,
    with the same arguments, and no call from nowhere. Calls standing for a
    malformed block are left to xml.malformed_executed."""
    matches = _matches(turn)
    placed = [m for m in matches if m is not None]
    if len(placed) != len(matches) or placed != sorted(placed):
        return False
    for call, want, match in zip(turn.parse.calls, _expected_arguments(turn), placed, strict=True):
        if want is not None and _argument_differences(want, turn.output_calls[match], turn, call):
            return False
    return not _attributed(turn)[1]


def check_stream_equivalence(turn: XmlTurn) -> list[Finding] | None:
    """A streamed source gives what the same text parsed in one piece gives."""
    if not turn.streamed:
        return None
    text_ok, calls_ok = _text_kept(turn), _equivalent_calls(turn)
    if text_ok and calls_ok:
        return []
    expected = {
        "text": turn.parse.text.strip(),
        "calls": [{"name": c.name, "arguments": c.arguments} for c in turn.parse.calls],
    }
    actual = {
        "text": turn.output_text.strip(),
        "calls": [{"name": o.call.name, "arguments": o.call.arguments} for o in turn.output_calls],
    }
    what = " and ".join(
        name for name, ok in (("text", text_ok), ("tool calls", calls_ok)) if not ok
    )
    return [
        finding(
            "xml.stream_equivalence",
            f"the streamed {turn.source_path} gives {what} at {turn.output_path} that differ "
            "from the same text parsed in one piece",
            turn.output_path,
            expected=expected,
            actual=actual,
        )
    ]


# --- wiring: what the engine calls -------------------------------------------


def _per_turn(
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


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "xml.call_not_parsed": _per_turn(check_call_not_parsed),
    "xml.parameter_type": _per_turn(check_parameter_type),
    "xml.text_preserved": _per_turn(check_text_preserved),
    "xml.call_order": _per_turn(check_call_order),
    "xml.malformed_executed": _per_turn(check_malformed_executed, streams=True),
    "xml.stream_equivalence": _per_turn(check_stream_equivalence, streams=True),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {}
