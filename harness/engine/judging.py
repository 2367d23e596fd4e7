"""Judging one converted payload, for an adapter's call and a proxy's exchange alike.

The pieces both ``runner`` (one payload per ``convert`` call) and
``exchange`` (both legs of a proxy's exchange) need: the profile an output
is judged under, reading the output back with the target's codec, and the
case's ``expect:`` block as the conversion rules read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.harness.adapters.base import Direction
from toolwire.harness.corpus.case import Case
from toolwire.harness.engine.collect import VerdictCollector
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.errors import ToolwireError, WireFormatError
from toolwire.harness.payloads import SourcePayload, parse_payload


def read_output(
    direction: Direction,
    raw: Any,
    profile: str,
    source: SourcePayload,
    where: str,
    collector: VerdictCollector,
) -> PayloadUnderTest | None:
    try:
        return parse_payload(
            direction.target, direction.kind, raw, profile, source.under_test.tools, where
        )
    except WireFormatError as error:
        collector.unreadable_output(direction, raw, profile, where, error)
    except ToolwireError as error:
        collector.error(where, f"the output could not be read: {error}")
    return None


def target_profile(case: Case, target: str, options: RunOptions) -> str:
    if target in options.profiles:
        return options.profiles[target]
    if target == case.dialect:
        return case.profile
    if options.corpus is not None and target in case.twins:
        twin = options.corpus.get(case.twins[target])
        if twin is not None:
            return twin.profile
    return DEFAULT_PROFILE[target]


def expect_mapping(case: Case) -> Mapping[str, Any]:
    expect = case.expect
    found: dict[str, Any] = {}
    if expect.tool_calls is not None:
        found["tool_calls"] = [
            {"name": call.name, "arguments": dict(call.arguments)} for call in expect.tool_calls
        ]
    if expect.text is not None:
        found["text"] = expect.text
    if expect.xml_issues:
        found["xml_issues"] = list(expect.xml_issues)
    return found
