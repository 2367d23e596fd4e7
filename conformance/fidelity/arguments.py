"""fidelity.arguments: tool call arguments are the same JSON object everywhere.

On one payload: arguments must be a JSON object. openai-chat carries them as
JSON text, so text that is not JSON, JSON that decodes to a string (double
encoding) or to any other non-object, or an object where the text belongs, is
a finding; anthropic-messages carries ``input`` as an object, so a string
there ("left as a string") is one. In a stream, fragments that do not join to
JSON are ``stream.partial_json``'s to report; this rule still judges what
they join to.

Across a conversion: each call's parsed arguments equal the source's, by JSON
value: Unicode strings exactly, numbers by numeric value. ``1`` and ``1.0``
are the same JSON number (RFC 8259 gives numbers no integer/float
distinction, and JSON Schema's ``integer`` accepts ``1.0``), so they are
equal here; ``true`` is never ``1``, and a large integer that lost precision
(``12345678901234567890`` -> ``12345678901234567000``) differs. A call whose
output arguments are malformed is left to the payload check on the output;
a call whose source arguments are malformed has nothing to compare with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolwire.conformance.context import (
    ConversionCheck,
    PayloadCheck,
    PayloadUnderTest,
    RoundTripCheck,
)
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.json_values import first_json_difference, json_equal
from toolwire.conformance.readings.views import CallRef, call_refs, from_qwen_markup, pair_up, short
from toolwire.conformance.rule import documented, means, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, ANTHROPIC_TOOLS, OPENAI_DOCS, OPENAI_TOOLS
from toolwire.harness.model import ANTHROPIC_MESSAGES, ToolCall

ARGUMENTS = rule(
    "fidelity.arguments",
    "MUST",
    "payload conversion roundtrip",
    "Tool call arguments arrive as the same JSON object: not double-encoded, not left "
    "as a string, Unicode and numbers intact.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    evidence=(
        documented(ANTHROPIC_DOCS, "tool_use.input is an object"),
        documented(OPENAI_DOCS, "function.arguments is the arguments as JSON text"),
        means(OPENAI_TOOLS, "the arguments are what the model generated for the call"),
        means(ANTHROPIC_TOOLS, "input is what the model generated for the call"),
    ),
    fix=(
        "Parse openai-chat's `arguments` JSON text into the anthropic `input` object, and "
        "serialise `input` once into `arguments` the other way. Do not encode twice, do not "
        "leave text where an object is required, and keep numbers and Unicode as they are."
    ),
)


def arguments_problem(call: ToolCall, dialect: str, streamed: bool = False) -> str | None:
    """Why ``call``'s arguments are not a usable JSON object, or None."""
    if call.arguments_error is not None:
        if streamed and call.raw_arguments is not None:
            return None  # fragments that do not join to JSON: stream.partial_json
        return call.arguments_error
    value = call.arguments
    if isinstance(value, dict):
        return None
    if isinstance(value, str):
        if dialect == ANTHROPIC_MESSAGES:
            return f"input is a string ({short(value)}), not a JSON object"
        return f"arguments are double-encoded: the JSON text decodes to a string ({short(value)})"
    kind = "array" if isinstance(value, list) else type(value).__name__
    if value is None:
        kind = "null"
    return f"arguments decode to {kind}, not a JSON object"


def check_arguments_payload(payload: PayloadUnderTest) -> list[Finding] | None:
    refs = call_refs(payload)
    if not refs:
        return None
    streamed = payload.stream is not None
    found = []
    for ref in refs:
        problem = arguments_problem(ref.call, payload.dialect, streamed)
        if problem is not None:
            found.append(
                finding(
                    "fidelity.arguments",
                    f"the call to {ref.call.name!r} at {ref.path}: {problem}",
                    ref.path,
                    expected="a JSON object",
                    actual=ref.call.raw_arguments
                    if ref.call.raw_arguments is not None
                    else ref.call.arguments,
                )
            )
    return found


def compare_arguments(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    id_mapping: Mapping[str, str] | None = None,
) -> list[Finding] | None:
    if from_qwen_markup(source):
        return None  # calls read from Qwen XML: xml.call_not_parsed / xml.parameter_type
    if from_qwen_markup(output) and output.tools is None:
        return None  # without the tools' schemas every XML value reads as a string
    source_refs = call_refs(source)
    if not source_refs:
        return None
    output_refs = call_refs(output)
    pairs = pair_up([r.call.id for r in source_refs], [r.call.id for r in output_refs], id_mapping)
    found = [_missing(source_refs, output, pairs)] if len(pairs) < len(source_refs) else []
    for source_index, output_index in pairs:
        mismatch = _compare(source_refs[source_index], output_refs[output_index], source, output)
        if mismatch is not None:
            found.append(mismatch)
    return found


def _compare(
    source_ref: CallRef, output_ref: CallRef, source: PayloadUnderTest, output: PayloadUnderTest
) -> Finding | None:
    streamed = output.stream is not None
    if arguments_problem(source_ref.call, source.dialect) is not None:
        return None  # the source itself had no object to keep
    if arguments_problem(output_ref.call, output.dialect, streamed) is not None:
        return None  # reported by the payload check on the output
    if output_ref.call.arguments_error is not None:
        return None
    expected, actual = source_ref.call.arguments, output_ref.call.arguments
    if json_equal(expected, actual):
        return None
    return finding(
        "fidelity.arguments",
        f"the arguments of the call to {output_ref.call.name!r} at {output_ref.path} differ "
        f"from the source's at {source_ref.path}: {first_json_difference(expected, actual)}",
        output_ref.path,
        expected=expected,
        actual=actual,
    )


def _missing(
    source_refs: Sequence[CallRef], output: PayloadUnderTest, pairs: list[tuple[int, int]]
) -> Finding:
    matched = {i for i, _ in pairs}
    lost = [ref for i, ref in enumerate(source_refs) if i not in matched]
    names = ", ".join(f"{ref.call.name!r} ({ref.path})" for ref in lost)
    return finding(
        "fidelity.arguments",
        f"{len(lost)} call(s) of the source never arrive in the output: {names}",
        _calls_path(output),
        expected=[ref.call.arguments for ref in source_refs],
        actual=[ref.call.arguments for ref in call_refs(output)],
    )


def _calls_path(payload: PayloadUnderTest) -> str:
    if payload.conversation is not None:
        return "messages"
    return "content" if payload.dialect == ANTHROPIC_MESSAGES else "choices[0].message.tool_calls"


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"fidelity.arguments": check_arguments_payload}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.arguments": pairwise.not_for_streams(pairwise.conversion_with_ids(compare_arguments)),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "fidelity.arguments": pairwise.roundtrip_not_for_streams(
        pairwise.roundtrip_with_ids(compare_arguments)
    ),
}
