"""xml.call_not_parsed: every well-formed Qwen XML call becomes a structured call."""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_oracle import XmlTurn
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.conformance.xml.markup_calls import call_matches, per_turn

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


def check_call_not_parsed(turn: XmlTurn) -> list[Finding] | None:
    """Every well-formed call of the text is among the output's structured calls."""
    if not turn.parse.calls:
        return None
    found = []
    for number, (call, match) in enumerate(zip(turn.parse.calls, call_matches(turn), strict=True)):
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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "xml.call_not_parsed": per_turn(check_call_not_parsed),
}
