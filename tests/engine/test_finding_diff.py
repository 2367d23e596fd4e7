"""The diff shown under a failure: both values compared, or the one the finding gave."""

from __future__ import annotations

from toolwire.conformance.findings import finding
from toolwire.harness.engine.explain import finding_diff


def test_both_values_give_the_minimal_difference() -> None:
    diff = finding_diff(finding("x.y", "m", expected={"a": 1}, actual={"a": 2}))
    assert diff == "$['a']: expected 1, got 2"


def test_only_the_actual_value_is_shown_as_got_never_as_a_placeholder() -> None:
    # A stream issue carries only what was seen: its code.
    diff = finding_diff(finding("stream.event_order", "m", actual="unclosed_block"))
    assert diff == "$: got 'unclosed_block'"
    assert "object at" not in diff


def test_only_the_expected_value() -> None:
    assert finding_diff(finding("x.y", "m", expected=[1])) == "$: expected [1]"


def test_no_values_no_diff() -> None:
    assert finding_diff(finding("x.y", "m")) == ""
