"""fidelity.*: what the model said, and the tools it was given, survive conversion.

The checks live in helper modules, one concern each:

* ``fidelity_arguments``: arguments are a JSON object and keep their value;
* ``fidelity_text``: visible text and the error flag of tool results;
* ``fidelity_request``: tool definitions, tool choice, empty content;
* ``fidelity_response``: stop reason and usage;
* ``fidelity_roundtrip``: what a round trip must bring back beyond those;
* ``fidelity_view``: the shared comparison helpers.

This module wires them to the rule codes, one entry per scope the catalogue
names. A conversion is judged against its source (the adapter's declared id
mapping pairs calls and results); a round trip compares the returned payload
with the original, through the dialect it went via.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadCheck,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.fidelity.arguments import check_arguments_payload, compare_arguments
from toolwire.conformance.fidelity.roundtrip import check_roundtrip
from toolwire.conformance.fidelity.stop_reason import (
    check_empty_text_added,
    check_stop_reason,
    check_stop_reason_content,
    check_usage,
)
from toolwire.conformance.fidelity.text import check_error_flag, check_text
from toolwire.conformance.fidelity.tool_definitions import (
    check_empty_content,
    check_tool_choice,
    check_tool_definitions,
)
from toolwire.conformance.findings import Finding

Pairwise = Callable[[PayloadUnderTest, PayloadUnderTest], "list[Finding] | None"]
PairwiseWithIds = Callable[
    [PayloadUnderTest, PayloadUnderTest, Mapping[str, str] | None], "list[Finding] | None"
]


def _conversion(check: Pairwise) -> ConversionCheck:
    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        return check(conversion.source, conversion.output)

    return run


def _conversion_with_ids(check: PairwiseWithIds) -> ConversionCheck:
    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        return check(conversion.source, conversion.output, conversion.id_mapping)

    return run


def _roundtrip(check: Pairwise) -> RoundTripCheck:
    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        return check(roundtrip.original, roundtrip.returned)

    return run


def _roundtrip_with_ids(check: PairwiseWithIds) -> RoundTripCheck:
    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        return check(roundtrip.original, roundtrip.returned, None)

    return run


def _not_for_streams(check: ConversionCheck) -> ConversionCheck:
    """A streamed message's text and calls are stream.reassembly's to judge: the
    same defect in a stream gives that one code, not a fidelity code beside it."""

    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        if conversion.source.kind == "stream" or conversion.output.kind == "stream":
            return None
        return check(conversion)

    return run


def _roundtrip_not_for_streams(check: RoundTripCheck) -> RoundTripCheck:
    """The forward stream conversion's stream.reassembly already judged the text
    and calls of a stream; its round trip does not report them again."""

    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        if roundtrip.original.kind == "stream":
            return None
        return check(roundtrip)

    return run


def _error_flag_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    # Through a dialect without an error flag, a successful "Error: ..." result
    # cannot come back successful (docs/conventions.md).
    return check_error_flag(roundtrip.original, roundtrip.returned, None, (roundtrip.via,))


def _text_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    # Through anthropic-messages a final assistant message loses its trailing
    # whitespace, as that API requires (toolwire.conformance.fidelity.text).
    return check_text(roundtrip.original, roundtrip.returned, None, (roundtrip.via,))


def _stop_reason_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    # Through openai-chat, a stop sequence comes back as a plain end of turn.
    return check_stop_reason(roundtrip.original, roundtrip.returned, (roundtrip.via,))


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "fidelity.arguments": check_arguments_payload,
    "fidelity.empty_content": check_empty_content,
    "fidelity.stop_reason_content": check_stop_reason_content,
}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.arguments": _not_for_streams(_conversion_with_ids(compare_arguments)),
    "fidelity.text": _not_for_streams(_conversion_with_ids(check_text)),
    "fidelity.error_flag": _conversion_with_ids(check_error_flag),
    "fidelity.tool_definitions": _not_for_streams(_conversion_with_ids(check_tool_definitions)),
    "fidelity.tool_choice": _conversion(check_tool_choice),
    "fidelity.stop_reason": _conversion(check_stop_reason),
    "fidelity.usage": _conversion(check_usage),
    "fidelity.empty_text_added": _conversion(check_empty_text_added),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "fidelity.arguments": _roundtrip_not_for_streams(_roundtrip_with_ids(compare_arguments)),
    "fidelity.text": _roundtrip_not_for_streams(_text_roundtrip),
    "fidelity.error_flag": _error_flag_roundtrip,
    "fidelity.tool_definitions": _roundtrip_not_for_streams(
        _roundtrip_with_ids(check_tool_definitions)
    ),
    "fidelity.tool_choice": _roundtrip(check_tool_choice),
    "fidelity.stop_reason": _stop_reason_roundtrip,
    "fidelity.usage": _roundtrip(check_usage),
    "fidelity.roundtrip": check_roundtrip,
}
