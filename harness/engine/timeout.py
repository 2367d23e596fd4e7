"""Calling adapter code with a deadline, and keeping it from ending the run.

Python cannot kill a thread, so a call that overruns is abandoned in a daemon
thread and reported; the run goes on. Output is copied by the caller, so an
abandoned call cannot change what was judged. Calls run in a few daemon
threads kept from call to call (one is replaced when a call overruns in it),
not in a thread per call. (A case's conversions are judged on one such thread,
calling the adapter inline: toolwire.harness.engine.case_thread.)

An adapter that calls ``os._exit`` would end toolwire with the adapter's exit
status (0 would read as a clean run, with no report). So while adapter calls
are possible, ``os._exit`` called from an adapter-call thread raises
``AdapterExited`` instead; called from anywhere else it exits as usual. A
fatal signal or a crash in native code still ends the process: ``--jobs N``
runs adapters in worker processes, where that becomes an ``error`` verdict.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

CALL_THREAD_NAME = "toolwire-adapter-call"
_real_exit = os._exit
_in_adapter_call = threading.local()


class CallTimedOut(Exception):
    pass


class AdapterExited(BaseException):
    """``os._exit`` called by adapter code, stopped before it ended the process.
    A BaseException, like SystemExit, so an adapter's ``except Exception``
    does not swallow it."""

    def __init__(self, status: int) -> None:
        super().__init__(f"the adapter called os._exit({status}); toolwire kept running")
        self.status = status


def _guarded_exit(status: int) -> NoReturn:
    # A child forked from an adapter-call thread shares the flag: let it exit.
    if getattr(_in_adapter_call, "pid", None) == os.getpid():
        raise AdapterExited(status)
    _real_exit(status)


def install_exit_guard() -> None:
    if os._exit is not _guarded_exit:
        setattr(os, "_exit", _guarded_exit)  # noqa: B010 - mypy refuses a plain assignment


class _CallThread:
    """A daemon thread that runs adapter calls one at a time, reused from call
    to call: starting a thread per call cost more than most conversions.
    A call that overruns abandons its thread (Python cannot stop it); the
    next call gets a fresh one."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._calls: queue.SimpleQueue[Callable[[], Any] | None] = queue.SimpleQueue()
        self.outcomes: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name=CALL_THREAD_NAME, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        _in_adapter_call.pid = os.getpid()
        while True:
            function = self._calls.get()
            if function is None:
                return
            try:
                outcome: tuple[bool, Any] = (True, function())
            except BaseException as error:  # SystemExit from an adapter must not end the run
                outcome = (False, error)
            del function  # nothing of the call stays referenced here
            self.outcomes.put(outcome)
            del outcome

    def submit(self, function: Callable[[], Any]) -> None:
        self._calls.put(function)

    def retire(self) -> None:
        """No more calls: the thread ends once its current call (if any) returns."""
        self._calls.put(None)

    def usable(self) -> bool:
        # A forked child inherits this object but not the thread.
        return self.pid == os.getpid() and self.thread.is_alive()


# Idle call threads, for any thread of toolwire that calls adapter code.
_IDLE_KEPT = 4
_idle: list[_CallThread] = []
_idle_lock = threading.Lock()


def take_call_thread() -> _CallThread:
    with _idle_lock:
        while _idle:
            candidate = _idle.pop()
            if candidate.usable():
                return candidate
    return _CallThread()


def give_back_call_thread(worker: _CallThread) -> None:
    with _idle_lock:
        if len(_idle) < _IDLE_KEPT:
            _idle.append(worker)
            return
    worker.retire()


def _forget_idle_threads() -> None:
    # In a forked child the threads are gone and the lock may be held.
    global _idle_lock
    _idle_lock = threading.Lock()
    _idle.clear()


os.register_at_fork(after_in_child=_forget_idle_threads)


def call_with_timeout(function: Callable[[], T], seconds: float) -> T:
    """``function()`` in an adapter-call thread; CallTimedOut after ``seconds``."""
    install_exit_guard()
    worker = take_call_thread()
    worker.submit(function)
    try:
        succeeded, value = worker.outcomes.get(timeout=max(seconds, 0.0))
    except queue.Empty:
        worker.retire()  # still running the call: abandoned, it ends when the call does
        raise CallTimedOut(f"no answer within {seconds:g} s") from None
    give_back_call_thread(worker)
    if not succeeded:
        raise value
    return value  # type: ignore[no-any-return]
