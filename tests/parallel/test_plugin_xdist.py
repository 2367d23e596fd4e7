"""`pytest -n 2` with the toolwire plugin: the verdicts of a serial session (J6).

Each xdist worker collects (and so judges) the same cases; the controller
alone writes the results it receives from a worker. Its results JSON equals
the serial session's apart from the start and end times, and the test
outcomes are the same.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.parallel.support import small_corpus, without_timings
from tests.support.real_transcripts import PROJECT_ROOT

GARBAGE = "tests.engine.test_adapters:ReturnsGarbage"
RAISES_ON_PARALLEL = "tests.engine.test_adapters:RaisesOnlyOnParallel"


@pytest.fixture
def tw(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(PROJECT_ROOT))
    return pytester


def _session(tw: pytest.Pytester, adapter: str, *extra: str) -> tuple[dict[str, int], Any]:
    corpus = small_corpus(tw.path / "corpus")
    reports = tw.path / f"reports{'-'.join(extra) or '-serial'}"
    result = tw.runpytest_subprocess(
        "--toolwire-adapter",
        adapter,
        "--toolwire-corpus",
        str(corpus),
        f"--toolwire-report-dir={reports}",
        "-p",
        "no:cacheprovider",
        *extra,
    )
    assert sorted(p.name for p in reports.iterdir()) == ["results.json"]
    document = json.loads((reports / "results.json").read_text(encoding="utf-8"))
    return result.parseoutcomes(), document


@pytest.mark.parametrize("adapter", [GARBAGE, RAISES_ON_PARALLEL])
def test_j6_xdist_gives_the_serial_results_and_outcomes(tw: pytest.Pytester, adapter: str) -> None:
    serial_outcomes, serial = _session(tw, adapter)
    parallel_outcomes, parallel = _session(tw, adapter, "-n", "2")
    assert serial_outcomes["failed"] > 0  # the comparison covers failing items
    assert parallel_outcomes == serial_outcomes
    assert without_timings(parallel) == without_timings(serial)
