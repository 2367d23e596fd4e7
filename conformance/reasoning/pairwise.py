"""Wrappers that make a reasoning comparison of two parsed payloads a check of one scope.

A check here compares the source's conversation or response with the
output's (``check(source, output)``); these wrappers only adapt it to a
conversion (optionally toward one target dialect) or a round trip
(optionally through one dialect). Each rule's module wires its own checks.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding
from toolwire.harness.model import Conversation, Response

Compare = Callable[[Conversation | Response, Conversation | Response], "list[Finding] | None"]


def conversion(check: Compare, target: str | None = None) -> ConversionCheck:
    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        source = conversion.source.conversation or conversion.source.response
        output = conversion.output.conversation or conversion.output.response
        if source is None or output is None:
            return None
        if target is not None and conversion.output.dialect != target:
            return None
        return check(source, output)

    return run


def response_aware(check: Callable[..., list[Finding] | None]) -> Compare:
    """``check`` leaving a response whose reasoning is gone to reasoning.dropped
    and reasoning.not_carried (one defect, one code)."""
    return lambda source, output: check(source, output, emptied_elsewhere=True)


def roundtrip(check: Compare, via: str | None = None) -> RoundTripCheck:
    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        original = roundtrip.original.conversation or roundtrip.original.response
        returned = roundtrip.returned.conversation or roundtrip.returned.response
        if original is None or returned is None:
            return None
        # A round trip through a dialect that cannot carry signatures loses
        # them by a named normalisation (docs/conventions.md), not a failure.
        if via is not None and roundtrip.via != via:
            return None
        return check(original, returned)

    return run
