"""xml.malformed_executed: a malformed XML call is never run with partial arguments.

A block whose arguments are whole despite its faults may be run with the
complete arguments (``xml_lenient.recovered_call``). Judged on streamed
sources too, beside xml.stream_equivalence.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolwire.conformance.context import ConversionCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.xml_lenient import (
    accepted_arguments,
    recovered_call,
    tool_schema,
)
from toolwire.conformance.readings.xml_oracle import XmlTurn
from toolwire.conformance.readings.xml_values import preview
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import QWEN_CODER
from toolwire.conformance.xml.markup_calls import attributed, per_turn
from toolwire.harness.dialects.qwen_xml import RejectedCall
from toolwire.harness.model import ToolCall

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


def _recovery_ok(rejected: RejectedCall, call: ToolCall, turn: XmlTurn) -> bool:
    recovered = recovered_call(rejected, turn.tools)
    if recovered is None or recovered.name != call.name:
        return False
    if turn.typed:
        tool = tool_schema(turn.tools, call.name)
        return accepted_arguments(recovered.raw_arguments or "", call.arguments, tool) == []
    # No schemas: the values cannot be typed here, so the parameter names decide.
    return isinstance(call.arguments, Mapping) and set(call.arguments) == set(recovered.arguments)


def check_malformed_executed(turn: XmlTurn) -> list[Finding] | None:
    """No output call stands for a malformed block (except a complete recovery)."""
    if not turn.parse.rejected:
        return None
    found = []
    for rejected, index in attributed(turn)[0]:
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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "xml.malformed_executed": per_turn(check_malformed_executed, streams=True),
}
