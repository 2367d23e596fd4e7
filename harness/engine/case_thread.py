"""Speed: a hand-off per adapter call cost 1.5 of 4.5 s; a case now runs on one thread.

Handing each adapter call to another thread and waiting for the answer cost
more CPU than the conversions themselves (1.5 of 4.5 s on the bundled corpus:
every hand-off moves the work, and the data it touches, from core to core).
So a whole case is judged on one reused daemon thread that calls the adapter
inline, and the calling thread supervises it: the judge publishes when each
adapter call starts and how much of the case's budget it may take, and the
supervisor wakes at that call's deadline, not per call.

Python cannot stop a thread, so a call that overruns abandons its judge: the
case is judged again on a fresh thread, replaying the answers of the calls
that had returned; the overrunning call times out and every later call finds
the budget used up. Judging is deterministic, so that gives the verdicts the
budget demands, and a replay never calls the adapter, so it cannot hang on it.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from toolwire.harness.engine.children import child_pids, end_children_since
from toolwire.harness.engine.timeout import (
    CallTimedOut,
    give_back_call_thread,
    install_exit_guard,
    take_call_thread,
)

T = TypeVar("T")


class JudgeAbandoned(BaseException):
    """Raised in an abandoned judge at its next adapter call, to end its work.
    A BaseException, so the engine's ``except Exception`` lets it through."""


@dataclass(frozen=True)
class _Answer:
    returned: bool
    value: Any  # the return value, or the exception raised

    def give(self) -> Any:
        if self.returned:
            return self.value
        raise self.value


@dataclass(frozen=True)
class _CallInFlight:
    index: int
    started: float
    allowed: float  # seconds of the budget this call may take

    @property
    def deadline(self) -> float:
        return self.started + self.allowed


class CaseBudget:
    """The time adapter code may take for one case (only time inside adapter
    calls counts), for a judge supervised by ``judge_on_own_thread``."""

    def __init__(self, seconds: float, replay: tuple[_Answer, ...] = (), overran: bool = False):
        self.seconds = seconds
        self.remaining = seconds
        self.in_flight: _CallInFlight | None = None  # read by the supervisor
        self.abandoned = False
        self.answers: list[_Answer] = []
        self._replay = replay
        self._overran = overran  # the call after the replayed ones overran
        self._calls = 0

    def call(self, function: Callable[[], Any], settle: Callable[[Any], T] | None = None) -> T:
        """``function()`` timed against the budget; ``settle`` (untimed) turns
        its answer into what is kept for a replay: the engine's private copy,
        which nothing the adapter does later can change."""
        if self.abandoned:
            raise JudgeAbandoned
        index = self._calls
        self._calls += 1
        if index < len(self._replay):
            return self._replay[index].give()  # type: ignore[no-any-return]
        if index == len(self._replay) and self._overran:
            self.remaining = 0.0
            raise CallTimedOut(f"no answer within {self.seconds:g} s")
        if self.remaining <= 0:
            raise CallTimedOut(f"it used up its {self.seconds:g} s for this case")
        started = time.monotonic()
        self.in_flight = _CallInFlight(index, started, self.remaining)
        try:
            value = function()
        except BaseException as error:
            self.answers.append(_Answer(False, error))
            raise
        finally:
            self.in_flight = None
            self.remaining -= time.monotonic() - started
        if settle is not None:
            try:
                value = settle(value)
            except BaseException as error:
                self.answers.append(_Answer(False, error))
                raise
        self.answers.append(_Answer(True, value))
        return value  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _Overrun:
    index: int


def judge_on_own_thread(judge: Callable[[CaseBudget], T], seconds: float) -> T:
    """``judge(budget)`` on a judge thread; an adapter call through ``budget``
    that overruns the case's ``seconds`` raises CallTimedOut in a replay."""
    install_exit_guard()
    budget = CaseBudget(seconds)
    children_before = child_pids()
    while True:
        worker = take_call_thread()
        worker.submit(lambda budget=budget: judge(budget))  # type: ignore[misc]
        outcome = _supervise(worker.outcomes, budget)
        if isinstance(outcome, _Overrun):
            budget.abandoned = True
            worker.retire()  # it ends when the hung call returns
            end_children_since(children_before)  # a helper it waits on, say
            replay = tuple(budget.answers[: outcome.index])
            budget = CaseBudget(seconds, replay, overran=True)
            continue
        give_back_call_thread(worker)
        succeeded, value = outcome
        if not succeeded:
            raise value
        return value  # type: ignore[no-any-return]


def _supervise(
    outcomes: queue.SimpleQueue[tuple[bool, Any]], budget: CaseBudget
) -> tuple[bool, Any] | _Overrun:
    wait: float | None
    while True:
        call = budget.in_flight  # read once: the judge replaces it as it goes
        if call is not None:
            wait = call.deadline - time.monotonic()
            if wait <= 0:
                return _Overrun(call.index)
        elif budget.remaining > 0:
            wait = budget.remaining  # no call can overrun sooner than that
        else:
            wait = None  # every further call fails at once: nothing to time
        try:
            return outcomes.get(timeout=wait)
        except queue.Empty:
            continue
