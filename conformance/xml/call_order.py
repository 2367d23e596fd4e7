"""xml.call_order: several XML calls become structured calls in the order written."""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_oracle import XmlTurn
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.conformance.xml.markup_calls import call_matches, per_turn

CALL_ORDER = rule(
    "xml.call_order",
    "MUST",
    "conversion",
    "Several XML calls become structured calls in the order written.",
    QWEN_CODER,
    evidence=(means(QWEN_CODER, "several <tool_call> blocks are calls in that order"),),
    fix=("Emit the structured calls in the order the XML blocks are written."),
)


def check_call_order(turn: XmlTurn) -> list[Finding] | None:
    """Several calls keep the order they were written in."""
    placed = [
        (call, m)
        for call, m in zip(turn.parse.calls, call_matches(turn), strict=True)
        if m is not None
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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"xml.call_order": per_turn(check_call_order)}
