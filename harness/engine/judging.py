"""Judging one converted payload, for an adapter's call and a proxy's exchange alike.

The pieces both ``runner`` (one payload per ``convert`` call) and
``exchange`` (both legs of a proxy's exchange) need: the profile an output
is judged under, reading the output back with the target's codec, and the
case's ``expect:`` block as the conversion rules read it.

The profile: the one the run was given for the target (``--profile``), else
the case's (or its twin's, or the dialect's default), which a request output
may refine (``conformance.profiles.request_profile``: a deepseek-chat request
that does not show thinking mode is judged under ``deepseek``). A profile
given for the run is never refined.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.profiles import DEFAULT_PROFILE, request_profile
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
    chosen: bool = False,
) -> PayloadUnderTest | None:
    """The output read back, under ``profile`` (refined from the request unless
    ``chosen``: given for the run)."""
    try:
        payload = parse_payload(
            direction.target, direction.kind, raw, profile, source.under_test.tools, where
        )
    except WireFormatError as error:
        collector.unreadable_output(direction, raw, profile, where, error)
        return None
    except ToolwireError as error:
        collector.error(where, f"the output could not be read: {error}")
        return None
    if chosen or direction.kind != "request":
        return payload
    refined = request_profile(direction.target, profile, raw)
    return payload if refined == profile else replace(payload, profile=refined)


def chosen_profile(target: str, options: RunOptions) -> bool:
    """A profile for ``target`` was given for the run (never refined)."""
    return target in options.profiles


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
