"""With worker processes, progress hears of a case when a worker is given it.

`toolwire run --jobs N --progress bar` names the case being judged; with
several workers, several cases are in flight at once, and each must be
announced when it is sent, not when its verdicts come back.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from tests.parallel.support import small_corpus
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import run_corpus
from toolwire.harness.engine.verdicts import Verdict

# 0.3 s a conversion: each case keeps its worker busy for a second or more.
SLOW_ADAPTER = "tests.hostile.adapters:SleepsBriefly"


def test_cases_are_announced_as_they_are_sent_several_in_flight(tmp_path: Path) -> None:
    corpus = load_corpus(small_corpus(tmp_path / "corpus"))
    events: list[tuple[str, str]] = []

    def started(case: Case) -> None:
        events.append(("sent", case.id))

    def judged(case: Case, verdicts: list[Verdict]) -> None:
        events.append(("judged", case.id))

    run_corpus(
        corpus,
        load_adapter(SLOW_ADAPTER),
        RunOptions(corpus=corpus),
        jobs=2,
        on_case_start=started,
        on_case=judged,
    )
    judged_cases = [case.id for case in corpus]
    assert sorted(case for event, case in events if event == "sent") == sorted(judged_cases)
    for case_id in judged_cases:
        assert events.index(("sent", case_id)) < events.index(("judged", case_id))
    # Two workers: a second case is sent before the first one's verdicts are in.
    in_flight = [
        (first, second) for first, second in pairwise(events) if first[0] == second[0] == "sent"
    ]
    assert in_flight, events
