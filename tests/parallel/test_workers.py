"""The worker pool under ``--jobs``: order, start-up failures, lingering threads, how
workers start (J7-J11)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.parallel.support import small_corpus
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.workers import WorkerError, WorkerSetup, run_in_workers

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


# Run in a fresh interpreter: a pytest process may have threads (xdist's
# channel), and then the pool rightly refuses to fork.
FORKED_RUN = """
import json, shutil, sys
from pathlib import Path
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.workers import WorkerSetup, run_in_workers

corpus = load_corpus(Path(sys.argv[1]))
shutil.rmtree(sys.argv[1])  # a spawned worker, which loads from the folder, cannot start now
setup = WorkerSetup("reference", "reference", str(corpus.root))
parallel = dict(run_in_workers(setup, [case.id for case in corpus], 2, corpus=corpus))
adapter = load_adapter("reference")
serial = {case.id: run_case(case, adapter, RunOptions(corpus=corpus)) for case in corpus}
print(json.dumps({"same": parallel == serial, "verdicts": sum(map(len, parallel.values()))}))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_j10_forked_workers_judge_the_controllers_corpus_without_loading_it(
    tmp_path: Path,
) -> None:
    folder = small_corpus(tmp_path / "corpus")
    ran = subprocess.run(
        [sys.executable, "-c", FORKED_RUN, str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    outcome = json.loads(ran.stdout)
    assert outcome["same"] is True
    assert outcome["verdicts"] > 50


def test_j11_with_another_thread_alive_workers_are_spawned_and_load_the_corpus(
    tmp_path: Path,
) -> None:
    folder = small_corpus(tmp_path / "corpus")
    corpus = load_corpus(folder)
    shutil.rmtree(folder)  # spawned workers load from the folder: they cannot start now
    setup = WorkerSetup("reference", "reference", str(corpus.root))
    release = threading.Event()
    other = threading.Thread(target=release.wait, name="held-open")
    other.start()
    try:
        with pytest.raises(WorkerError, match="a worker process could not start"):
            list(run_in_workers(setup, [case.id for case in corpus], 2, corpus=corpus))
    finally:
        release.set()
        other.join()
