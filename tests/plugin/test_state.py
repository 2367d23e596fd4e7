"""What an xdist worker sends the controller: a case's verdicts, passes perhaps only counted."""

from __future__ import annotations

import json

import pytest

from toolwire.harness.engine.verdicts import CONVERT, Located, Verdict
from toolwire.harness.pytest_plugin.state import (
    CaseRecord,
    Judged,
    record_from_json,
    record_to_json,
)


def _verdict(rule: str, outcome: str, case: str = "c") -> Verdict:
    return Verdict(
        case,
        rule,
        "a",
        outcome,  # type: ignore[arg-type]
        "MUST",
        "p",
        f"{rule} {outcome}",
        (Located("request x->y", "found", "$.messages[0]", ""),),
        ("request x->y",),
    )


RECORD = CaseRecord(
    3,
    "c",
    ("parallel",),
    (
        _verdict("r.one", "pass"),
        _verdict("r.two", "warn"),
        _verdict("r.three", "pass"),
        _verdict(CONVERT, "error"),
        _verdict("r.four", "stale"),
    ),
    "gw1",
)


def _shipped(record: CaseRecord, passes: bool) -> CaseRecord:
    return record_from_json(json.dumps(record_to_json(record, passes)))


def test_with_passes_the_record_arrives_whole() -> None:
    assert _shipped(RECORD, passes=True) == RECORD


def test_without_passes_every_other_verdict_arrives_and_the_passes_are_counted() -> None:
    shipped = _shipped(RECORD, passes=False)
    assert shipped.verdicts == tuple(v for v in RECORD.verdicts if v.outcome != "pass")
    assert shipped.passes_not_sent == 2
    assert (shipped.index, shipped.case_id, shipped.features, shipped.worker) == (
        3,
        "c",
        ("parallel",),
        "gw1",
    )


def test_the_totals_broken_state_and_advice_do_not_depend_on_passes_being_sent() -> None:
    whole, counted = (Judged("spec", "a", "1", "/corpus") for _ in range(2))
    whole.add(RECORD)
    counted.add(_shipped(RECORD, passes=False))
    assert counted.outcome_counts() == whole.outcome_counts()
    assert whole.outcome_counts()["pass"] == 2 and whole.outcome_counts()["error"] == 1
    assert counted.broken() == whole.broken() is not None
    assert [v for v in counted.verdicts() if v.outcome == "warn"] == [
        v for v in whole.verdicts() if v.outcome == "warn"
    ]


def test_results_json_is_never_written_from_counted_passes() -> None:
    judged = Judged("spec", "a", "1", "/corpus")
    judged.add(_shipped(RECORD, passes=False))
    with pytest.raises(ValueError, match="needs every verdict"):
        judged.document()
    whole = Judged("spec", "a", "1", "/corpus")
    whole.add(RECORD)
    assert len(whole.document()["verdicts"]) == len(RECORD.verdicts)
