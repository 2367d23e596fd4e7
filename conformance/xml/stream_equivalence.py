"""xml.stream_equivalence: a streamed source gives what the same text in one piece gives.

For a streamed source this one verdict stands in place of the per-aspect
rules (a broken streaming parser is one problem).
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_oracle import (
    XmlTurn,
    leftover_markup,
    normalised,
    text_without_rejected,
)
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.conformance.xml.markup_calls import (
    accepted_texts,
    argument_differences,
    attributed,
    call_matches,
    expected_arguments,
    per_turn,
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


def _text_kept(turn: XmlTurn) -> bool:
    kept = normalised(text_without_rejected(turn.output_text, turn.parse))
    return kept in accepted_texts(turn) and not leftover_markup(turn.output_text, turn.parse)


def _equivalent_calls(turn: XmlTurn) -> bool:
    """The output has the well-formed calls of the one-piece parse, in order,
    with the same arguments, and no call from nowhere. Calls standing for a
    malformed block are left to xml.malformed_executed."""
    matches = call_matches(turn)
    placed = [m for m in matches if m is not None]
    if len(placed) != len(matches) or placed != sorted(placed):
        return False
    for call, want, match in zip(turn.parse.calls, expected_arguments(turn), placed, strict=True):
        if want is not None and argument_differences(want, turn.output_calls[match], turn, call):
            return False
    return not attributed(turn)[1]


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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "xml.stream_equivalence": per_turn(check_stream_equivalence, streams=True),
}
