"""Running cases in worker processes: ``toolwire run --jobs N``.

The controller hands case ids to the workers one at a time over pipes and
gathers their verdicts; it alone builds the results, so only it writes
reports. Each worker loads the adapter from its spec and the corpus from its
folder (nothing that cannot be pickled crosses the process boundary) and
calls ``run_case``, so a case gets the verdicts a serial run gives it; the
controller yields them in the order it was given, whatever order the
workers finish in.

How a worker starts: on Linux, while the controller runs no thread but its
main one, it is forked with the controller's corpus, so it starts with
toolwire imported and the cases parsed (a few milliseconds, where a fresh
interpreter spends half a second or more importing and loading the corpus
again); it still loads its own adapter from the spec. Anywhere else, or with
another thread alive (whose locks a forked child would inherit held), it is
spawned: a clean interpreter that loads the corpus from its folder.

Isolation beyond a serial run: a worker that dies on a case (``os._exit``
from a thread the adapter started, a fatal signal, a crash in native code)
gives that case an ``error`` verdict and is replaced; so does one that gives
no answer for ``hard_limit`` seconds (an adapter stuck in native code that
holds the GIL, which the per-call timeout cannot interrupt), after it is
killed. Threads an adapter leaves behind end with their worker.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolwire.harness.corpus.loader import Corpus
from toolwire.harness.engine.adapter_output import send_stdout_to_stderr_for_good
from toolwire.harness.engine.collect import VerdictCollector, describe_error
from toolwire.harness.engine.gc_threshold import fewer_gc_passes
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.errors import ToolwireError

if TYPE_CHECKING:  # ForkContext does not exist on Windows
    from multiprocessing.context import ForkContext, SpawnContext

# A worker silent on one case for this many times --timeout (at least the
# floor) is killed. Judging a very large case takes time of its own, hence
# the margin over the adapter's own budget.
HARD_LIMIT_FACTOR = 6.0
HARD_LIMIT_FLOOR = 60.0
# Starting a worker (an interpreter, toolwire, the corpus, the adapter's own
# imports) is not a case: a short case limit must not cut it on a busy machine.
LOAD_LIMIT_FLOOR = 60.0
STOP_WAIT = 2.0  # seconds workers get to stop before they are terminated
POLL_SECONDS = 5.0
WHERE = "worker process"


class WorkerError(ToolwireError):
    """The workers cannot run at all (the adapter does not load in them)."""

    exit_code = 3


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker needs to judge cases like the controller would."""

    adapter_spec: str
    adapter_name: str
    corpus_root: str
    options: RunOptions = field(default_factory=RunOptions)

    def __post_init__(self) -> None:
        # A Corpus cannot be pickled: each worker loads its own from the root.
        object.__setattr__(self, "options", replace(self.options, corpus=None))


def hard_limit_for(timeout: float) -> float:
    return max(HARD_LIMIT_FLOOR, HARD_LIMIT_FACTOR * timeout)


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    started: float
    ready: bool = False
    case_id: str | None = None
    since: float = 0.0


def run_in_workers(
    setup: WorkerSetup,
    case_ids: Sequence[str],
    jobs: int,
    hard_limit: float | None = None,
    on_sent: Callable[[str], None] | None = None,
    corpus: Corpus | None = None,
) -> Iterator[tuple[str, list[Verdict]]]:
    """(case id, verdicts) for every case, in the order of ``case_ids``;
    ``on_sent`` hears of each case as a worker is given it. ``corpus``, the
    controller's own (loaded from ``setup.corpus_root``), is what forked
    workers judge; without it every worker is spawned and loads its own."""
    pool = _Pool(
        setup,
        hard_limit if hard_limit is not None else hard_limit_for(setup.options.timeout),
        on_sent,
        corpus,
    )
    order = list(dict.fromkeys(case_ids))
    pending = deque(order)
    try:
        for _ in range(min(jobs, len(order))):
            pool.start()
        for case_id in order:
            while case_id not in pool.results:
                pool.assign(pending)
                pool.step(bool(pending))
            yield case_id, pool.results.pop(case_id)
    finally:
        pool.stop()


class _Pool:
    def __init__(
        self,
        setup: WorkerSetup,
        hard_limit: float,
        on_sent: Callable[[str], None] | None,
        corpus: Corpus | None,
    ) -> None:
        self.setup = setup
        self.hard_limit = hard_limit
        self.on_sent = on_sent
        self.corpus = corpus
        self.workers: list[_Worker] = []
        self.results: dict[str, list[Verdict]] = {}

    def start(self) -> None:
        context, corpus = self._how_to_start()
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=worker_main, args=(self.setup, theirs, corpus), name="toolwire-worker"
        )
        process.start()
        theirs.close()  # the child holds its end; ours sees EOF when it dies
        self.workers.append(_Worker(process, ours, started=time.monotonic()))

    def _how_to_start(self) -> tuple[ForkContext | SpawnContext, Corpus | None]:
        """Fork with the corpus where that is safe (see the module's docstring), else spawn."""
        if self.corpus is not None and can_fork_safely():
            return multiprocessing.get_context("fork"), self.corpus
        return multiprocessing.get_context("spawn"), None

    def assign(self, pending: deque[str]) -> None:
        for worker in self.workers:
            if not pending:
                return
            if worker.ready and worker.case_id is None:
                case_id = pending.popleft()
                try:
                    worker.connection.send(case_id)
                except OSError:  # it died while idle; its sentinel will say so
                    pending.appendleft(case_id)
                    continue
                worker.case_id, worker.since = case_id, time.monotonic()
                if self.on_sent is not None:
                    self.on_sent(case_id)

    def step(self, more_to_start: bool) -> None:
        """Wait for one event (an answer, a death, a time limit) and handle it."""
        now = time.monotonic()
        deadlines = [self._deadline(worker) for worker in self.workers]
        # Wake at the next time limit, and at least every few seconds.
        timeout = min(max(min(deadlines, default=now) - now, 0.0), POLL_SECONDS)
        handles: list[Any] = [w.connection for w in self.workers]
        handles += [w.process.sentinel for w in self.workers]
        ready = set(wait(handles, timeout))
        for worker in list(self.workers):
            if worker.connection in ready or worker.process.sentinel in ready:
                self._read(worker)
            if not worker.process.is_alive():
                self._bury(worker, more_to_start)
            elif time.monotonic() > self._deadline(worker):
                self._kill(worker, more_to_start)

    @property
    def _load_limit(self) -> float:
        return max(self.hard_limit, LOAD_LIMIT_FLOOR)

    def _deadline(self, worker: _Worker) -> float:
        if not worker.ready:
            return worker.started + self._load_limit
        if worker.case_id is None:
            return float("inf")
        return worker.since + self.hard_limit

    def _read(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                message = worker.connection.recv()
                if message[0] == "ready":
                    worker.ready = True
                elif message[0] == "failed":
                    raise WorkerError(f"a worker process could not start: {message[1]}")
                elif message[0] == "done":
                    self.results[message[1]] = message[2]
                    worker.case_id = None
        except (EOFError, OSError):
            pass  # it died: its sentinel says so, and _bury handles it

    def _bury(self, worker: _Worker, more_to_start: bool) -> None:
        worker.process.join()
        ended = _exit_text(worker.process.exitcode)
        if not worker.ready:
            raise WorkerError(
                f"a worker process ended while loading the adapter ({ended})",
                hint="check that the adapter loads with --jobs 1",
            )
        if worker.case_id is not None:
            self._error(
                worker.case_id,
                f"the worker process running this case ended ({ended}): the adapter ended "
                "it (os._exit from its own thread, a signal or a crash in native code)",
            )
        self._replace(worker, more_to_start)

    def _kill(self, worker: _Worker, more_to_start: bool) -> None:
        worker.process.kill()
        worker.process.join()
        if not worker.ready:
            raise WorkerError(
                f"a worker process did not load the adapter within {self._load_limit:g} s"
            )
        if worker.case_id is not None:
            self._error(
                worker.case_id,
                f"no answer from the worker process within {self.hard_limit:g} s, so it was "
                "stopped: an adapter stuck in native code, or a case too large to judge in "
                "that time (raise --timeout)",
            )
        self._replace(worker, more_to_start)

    def _replace(self, worker: _Worker, more_to_start: bool) -> None:
        worker.connection.close()
        self.workers.remove(worker)
        if more_to_start:
            self.start()

    def _error(self, case_id: str, message: str) -> None:
        collector = VerdictCollector(case_id, self.setup.adapter_name)
        collector.error(WHERE, message)
        self.results[case_id] = collector.verdicts()

    def stop(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(OSError):  # already gone
                worker.connection.send(None)
        deadline = time.monotonic() + STOP_WAIT
        for worker in self.workers:
            worker.process.join(max(deadline - time.monotonic(), 0.0))
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
        self.workers.clear()


def _exit_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


def can_fork_safely() -> bool:
    """Linux (fork is the platform's own way there), and no thread but this one:
    a forked child gets copies of every lock, held or not, and no other thread.
    The kernel's count sees threads ``threading`` does not (started by C code
    or by ``_thread``, as pytest-xdist's channel does)."""
    if sys.platform != "linux" or threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc: we cannot know, so do not fork
        return False


def worker_main(setup: WorkerSetup, connection: Connection, corpus: Corpus | None = None) -> None:
    """The worker process: load, then judge the cases it is sent until told to stop.
    ``corpus`` is the controller's when it was forked, None when it was spawned."""
    # Ctrl-C and SIGTERM are the controller's to handle: it stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    send_stdout_to_stderr_for_good()  # the controller's stdout may carry the results JSON
    try:
        from toolwire.harness.adapters.lifecycle import adapter_session
        from toolwire.harness.adapters.loader import load_adapter
        from toolwire.harness.corpus.loader import load_corpus

        adapter = load_adapter(setup.adapter_spec)
        if corpus is None:
            corpus = load_corpus(Path(setup.corpus_root))
    except BaseException as error:  # anything: the controller reports it in one line
        connection.send(("failed", describe_error(error)))
        return
    options = replace(setup.options, corpus=corpus)
    connection.send(("ready", None))
    with fewer_gc_passes(), adapter_session(adapter):
        while True:
            try:
                case_id = connection.recv()
            except (EOFError, OSError):
                break  # the controller is gone
            if case_id is None:
                break
            verdicts = _judge(corpus, case_id, adapter, options, setup.adapter_name)
            connection.send(("done", case_id, verdicts))
    _leave_without_lingering_threads()


def _judge(
    corpus: Any, case_id: str, adapter: Any, options: RunOptions, name: str
) -> list[Verdict]:
    try:
        return run_case(corpus[case_id], adapter, options)
    except Exception as error:  # run_case reports adapter trouble itself; this is a bug
        collector = VerdictCollector(case_id, name)
        collector.error(WHERE, f"toolwire failed on this case: {describe_error(error)}")
        return collector.verdicts()


def _leave_without_lingering_threads() -> None:
    """A thread the adapter left running would keep the worker alive at exit."""
    lingering = [
        thread
        for thread in threading.enumerate()
        if thread is not threading.main_thread() and not thread.daemon and thread.is_alive()
    ]
    if lingering:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
