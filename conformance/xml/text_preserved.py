"""xml.text_preserved: the text before the calls is kept, without markup."""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_oracle import (
    XmlTurn,
    leftover_markup,
    normalised,
    text_without_rejected,
)
from toolwire.conformance.readings.xml_values import preview
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.conformance.xml.markup_calls import accepted_texts, call_matches, per_turn

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


def check_text_preserved(turn: XmlTurn) -> list[Finding] | None:
    """The text around the calls is kept, and no markup is left in it."""
    if not (turn.parse.text.strip() or turn.has_markup or turn.output_text.strip()):
        return None  # no text and no markup on either side: nothing to keep
    found = []
    # A well-formed call the output did not parse, left in the text, is
    # xml.call_not_parsed's to report; judge the text without it, so one
    # defect gives one code. (Markup left beside a parsed call stays a finding.)
    output_text = turn.output_text
    for call, match in zip(turn.parse.calls, call_matches(turn), strict=True):
        if match is None and call.raw_arguments:
            output_text = output_text.replace(call.raw_arguments, "", 1)
    kept = text_without_rejected(output_text, turn.parse)
    if normalised(kept) not in accepted_texts(turn):
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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "xml.text_preserved": per_turn(check_text_preserved),
}
