"""xml.parameter_type: each XML value is typed by the tool's JSON Schema.

Where the real parsers split on a value, any reading one of them gives is
accepted (markup_calls.argument_differences).
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_oracle import XmlTurn
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.conformance.xml.markup_calls import (
    argument_differences,
    call_matches,
    expected_arguments,
    per_turn,
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


def check_parameter_type(turn: XmlTurn) -> list[Finding] | None:
    """Each value arrives converted by the type its JSON Schema gives it."""
    pairs = [
        (want, turn.output_calls[match], call)
        for call, want, match in zip(
            turn.parse.calls, expected_arguments(turn), call_matches(turn), strict=True
        )
        if want is not None and match is not None
    ]
    if not any(want or got.call.arguments for want, got, _ in pairs):
        return None  # no parameter written or received: no value to type
    found = []
    for want, got, call in pairs:
        for problem in argument_differences(want, got, turn, call):
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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "xml.parameter_type": per_turn(check_parameter_type),
}
