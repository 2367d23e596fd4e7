"""Wrappers that make a fidelity comparison of two payloads a check of one scope.

A fidelity check compares a source payload with another: ``check(source,
output)``, or ``check(source, output, id_mapping)`` where calls and results
pair by id. A conversion is judged against its source (the adapter's declared
id mapping pairs calls and results); a round trip compares the returned
payload with the original, through the dialect it went via. This module only
wraps: each rule's module (``fidelity/<name>.py``) wires its own checks with
these wrappers in its check tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding

Pairwise = Callable[[PayloadUnderTest, PayloadUnderTest], "list[Finding] | None"]
PairwiseWithIds = Callable[
    [PayloadUnderTest, PayloadUnderTest, Mapping[str, str] | None], "list[Finding] | None"
]


def conversion(check: Pairwise) -> ConversionCheck:
    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        return check(conversion.source, conversion.output)

    return run


def conversion_with_ids(check: PairwiseWithIds) -> ConversionCheck:
    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        return check(conversion.source, conversion.output, conversion.id_mapping)

    return run


def roundtrip(check: Pairwise) -> RoundTripCheck:
    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        return check(roundtrip.original, roundtrip.returned)

    return run


def roundtrip_with_ids(check: PairwiseWithIds) -> RoundTripCheck:
    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        return check(roundtrip.original, roundtrip.returned, None)

    return run


def not_for_streams(check: ConversionCheck) -> ConversionCheck:
    """A streamed message's text and calls are stream.reassembly's to judge: the
    same defect in a stream gives that one code, not a fidelity code beside it."""

    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        if conversion.source.kind == "stream" or conversion.output.kind == "stream":
            return None
        return check(conversion)

    return run


def roundtrip_not_for_streams(check: RoundTripCheck) -> RoundTripCheck:
    """The forward stream conversion's stream.reassembly already judged the text
    and calls of a stream; its round trip does not report them again."""

    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        if roundtrip.original.kind == "stream":
            return None
        return check(roundtrip)

    return run
