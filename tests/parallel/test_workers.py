"""The worker pool under ``--jobs``: order, start-up failures, lingering threads (J7-J9)."""

from __future__ import annotations

import time

import pytest

from harness.corpus.loader import bundled_corpus_root
from harness.engine.runner import RunOptions
from harness.engine.workers import WorkerError, WorkerSetup, run_in_workers

ROOT = str(bundled_corpus_root())
HOSTILE = "tests.hostile.adapters"
SLOW = "parallel/two-cities-openai"
FAST = ("single-tool/weather-openai", "single-tool/weather-anthropic", "streaming/parallel-openai")


def test_j7_verdicts_come_back_in_the_order_given_not_the_order_finished() -> None:
    setup = WorkerSetup(f"{HOSTILE}:SlowOnParallel", "slow-on-parallel", ROOT)
    order = [SLOW, *FAST]
    finished = [case_id for case_id, _ in run_in_workers(setup, order, 2)]
    assert finished == order


def test_j8_an_adapter_that_does_not_load_in_a_worker_stops_the_run_with_one_line() -> None:
    setup = WorkerSetup("does.not:exist", "missing", ROOT)
    with pytest.raises(WorkerError) as caught:
        list(run_in_workers(setup, list(FAST), 2))
    message = str(caught.value)
    assert message.startswith("a worker process could not start: AdapterLoadError: ")
    assert "cannot import module 'does.not'" in message
    assert caught.value.exit_code == 3


def test_j9_threads_an_adapter_leaves_in_workers_do_not_keep_the_run_alive() -> None:
    setup = WorkerSetup(f"{HOSTILE}:LeaksThread", "leaks-thread", ROOT, RunOptions(timeout=5))
    started = time.monotonic()
    results = dict(run_in_workers(setup, list(FAST), 2))
    assert time.monotonic() - started < 60
    assert all({v.outcome for v in verdicts} == {"pass"} for verdicts in results.values())
