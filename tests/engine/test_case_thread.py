"""A case is judged on one thread that calls the adapter inline, supervised
from the calling thread (toolwire.harness.engine.case_thread).

What must hold: only time inside adapter calls counts against the case's
budget; a call that overruns gives the verdicts a per-call deadline gives
(the answers before it kept, the call timed out, every later call finding
the budget used up) without calling the adapter again; the abandoned judge
cannot change the verdicts returned; judge threads are reused.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.adapters.reference.adapter import ReferenceAdapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.case_thread import CaseBudget, judge_on_own_thread
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.timeout import CALL_THREAD_NAME, CallTimedOut
from toolwire.harness.engine.verdicts import CONVERT, Verdict

CORPUS = load_corpus(bundled_corpus_root())
CASE = "parallel/two-cities-openai"


class HangsAtCall:
    """The reference adapter, hanging at its ``hang_at``-th call (convert or
    id_mapping, counted together) until released."""

    name = "hangs-at-call"
    version = "1"

    def __init__(self, hang_at: int) -> None:
        self.inner = ReferenceAdapter()
        self.directions = self.inner.directions
        self.hang_at = hang_at
        self.calls = 0
        self.release = threading.Event()
        self.hung_thread: threading.Thread | None = None

    def _count(self) -> None:
        self.calls += 1
        if self.calls == self.hang_at:
            self.hung_thread = threading.current_thread()
            self.release.wait(30)

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        self._count()
        return self.inner.convert(payload, kind, source, target)  # type: ignore[arg-type]

    def id_mapping(self, payload: Any, kind: str, source: str, target: str) -> Any:
        self._count()
        return self.inner.id_mapping(payload, kind, source, target)  # type: ignore[arg-type]


def judged(hang_at: int, timeout: float = 0.2) -> tuple[list[Verdict], HangsAtCall]:
    implementation = HangsAtCall(hang_at)
    adapter = check_adapter(implementation, "hangs-at-call")
    try:
        return run_case(CORPUS[CASE], adapter, RunOptions(timeout=timeout, corpus=CORPUS)), (
            implementation
        )
    finally:
        implementation.release.set()


def messages(verdicts: list[Verdict]) -> list[str]:
    return [v.message for v in verdicts if v.outcome == "error"]


def test_without_a_hang_every_call_is_made_once() -> None:
    verdicts, adapter = judged(hang_at=0)
    assert not messages(verdicts)
    # 4 payload directions' worth of calls on this case: convert, id_mapping, back
    assert adapter.calls > 3


@pytest.mark.parametrize(
    ("hang_at", "expected"),
    [
        (1, "the adapter timed out: no answer within 0.2 s"),
        (2, "the adapter's id_mapping timed out: no answer within 0.2 s"),
        (3, "the adapter timed out: no answer within 0.2 s"),
    ],
    ids=["forward convert", "id_mapping", "back convert"],
)
def test_an_overrunning_call_times_out_and_no_later_call_reaches_the_adapter(
    hang_at: int, expected: str
) -> None:
    baseline, clean = judged(hang_at=0)
    verdicts, adapter = judged(hang_at)
    errors = messages(verdicts)
    assert any(expected in message for message in errors), errors
    assert sum("no answer within" in message for message in errors) == 1
    # No call after the overrun reached the adapter (the budget was used up),
    # and the replay gave the earlier answers back without calling it again.
    assert adapter.calls == hang_at
    # What was judged before the hang is kept: the first conversion's verdicts
    # when the hang came after it.
    passed_before = {v.rule_code for v in verdicts if v.outcome == "pass"}
    if hang_at > 1:
        assert passed_before
        assert passed_before <= {v.rule_code for v in baseline if v.outcome == "pass"}
    assert clean.calls > hang_at


def test_the_abandoned_judge_cannot_change_the_verdicts_and_ends() -> None:
    implementation = HangsAtCall(hang_at=1)
    adapter = check_adapter(implementation, "hangs-at-call")
    verdicts = run_case(CORPUS[CASE], adapter, RunOptions(timeout=0.1, corpus=CORPUS))
    snapshot = list(verdicts)
    hung = implementation.hung_thread
    assert hung is not None and hung.name == CALL_THREAD_NAME
    implementation.release.set()
    hung.join(10)
    assert not hung.is_alive()
    assert verdicts == snapshot
    assert implementation.calls == 1  # it stopped at its next adapter call


def test_time_spent_judging_does_not_count_against_the_budget() -> None:
    def judge(budget: CaseBudget) -> str:
        budget.call(lambda: time.sleep(0.1))
        time.sleep(0.4)  # judging, not the adapter
        return str(budget.call(lambda: "answered"))

    assert judge_on_own_thread(judge, 0.3) == "answered"


def test_a_call_late_in_a_case_gets_what_is_left_of_the_budget() -> None:
    release = threading.Event()

    def judge(budget: CaseBudget) -> str:
        budget.call(lambda: time.sleep(0.3))
        time.sleep(0.2)
        try:
            budget.call(lambda: release.wait(30))
        except CallTimedOut as error:
            return f"timed out after {budget.seconds - 0.3:.1f} s: {error}"
        return "answered"

    started = time.monotonic()
    try:
        outcome = judge_on_own_thread(judge, 0.5)
    finally:
        release.set()
    assert outcome == "timed out after 0.2 s: no answer within 0.5 s"
    # 0.3 s + 0.2 s judging + 0.2 s left, and the replay: well under the hung call's 30 s
    assert time.monotonic() - started < 5


def test_what_the_judge_raises_reaches_the_caller() -> None:
    def judge(budget: CaseBudget) -> None:
        raise ValueError("a harness bug")

    with pytest.raises(ValueError, match="a harness bug"):
        judge_on_own_thread(judge, 1)


def test_consecutive_cases_are_judged_on_one_reused_daemon_thread() -> None:
    def judge(budget: CaseBudget) -> threading.Thread:
        return budget.call(threading.current_thread)

    first = judge_on_own_thread(judge, 5)
    second = judge_on_own_thread(judge, 5)
    assert first is second and first is not threading.current_thread()
    assert first.daemon and first.name == CALL_THREAD_NAME


def test_a_case_that_hangs_still_lets_the_next_case_pass() -> None:
    verdicts, _ = judged(hang_at=1, timeout=0.1)
    assert any(v.rule_code == CONVERT and v.outcome == "error" for v in verdicts)
    fine = run_case(
        CORPUS["single-tool/weather-openai"],
        check_adapter(ReferenceAdapter(), "reference"),
        RunOptions(corpus=CORPUS),
    )
    assert fine and not [v for v in fine if v.outcome in ("error", "fail")]


def test_in_a_replay_the_overrunning_call_and_every_later_one_fail_without_calling() -> None:
    budget = CaseBudget(0.5, replay=(), overran=True)
    called: list[str] = []
    with pytest.raises(CallTimedOut, match=r"^no answer within 0\.5 s$"):
        budget.call(lambda: called.append("overran"))
    with pytest.raises(CallTimedOut, match=r"^it used up its 0\.5 s for this case$"):
        budget.call(lambda: called.append("later"))
    assert called == []


class ReusesItsFirstAnswerWhenItHangs(HangsAtCall):
    """Like HangsAtCall, but it empties the first answer it gave (an adapter
    reusing its output buffer) as the call that hangs starts: a replay must
    still judge that answer as it was when returned."""

    def __init__(self, hang_at: int) -> None:
        super().__init__(hang_at)
        self.first_answer: Any = None

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if self.calls + 1 == self.hang_at and isinstance(self.first_answer, dict):
            self.first_answer.clear()
        answer = super().convert(payload, kind, source, target)
        if self.first_answer is None:
            self.first_answer = answer
        return answer


def test_a_replay_judges_each_answer_as_it_was_returned() -> None:
    expected, _ = judged(hang_at=3)
    implementation = ReusesItsFirstAnswerWhenItHangs(hang_at=3)
    adapter = check_adapter(implementation, "hangs-at-call")
    try:
        verdicts = run_case(CORPUS[CASE], adapter, RunOptions(timeout=0.2, corpus=CORPUS))
    finally:
        implementation.release.set()
    assert implementation.first_answer == {}  # it did empty it
    assert [(v.rule_code, v.outcome, v.message) for v in verdicts] == [
        (v.rule_code, v.outcome, v.message) for v in expected
    ]
