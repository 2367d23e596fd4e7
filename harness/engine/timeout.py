"""Calling adapter code with a deadline, and keeping it from ending the run.

Python cannot kill a thread, so a call that overruns is abandoned in a daemon
thread and reported; the run goes on. Output is copied by the caller, so an
abandoned call cannot change what was judged.

An adapter that calls ``os._exit`` would end toolwire with the adapter's exit
status (0 would read as a clean run, with no report). So while adapter calls
are possible, ``os._exit`` called from an adapter-call thread raises
``AdapterExited`` instead; called from anywhere else it exits as usual. A
fatal signal or a crash in native code still ends the process: ``--jobs N``
runs adapters in worker processes, where that becomes an ``error`` verdict.
"""

from __future__ import annotations

import os
import threading
import time
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


def _install_exit_guard() -> None:
    if os._exit is not _guarded_exit:
        setattr(os, "_exit", _guarded_exit)  # noqa: B010 - mypy refuses a plain assignment


def call_with_timeout(function: Callable[[], T], seconds: float) -> T:
    _install_exit_guard()
    outcome: dict[str, Any] = {}

    def target() -> None:
        _in_adapter_call.pid = os.getpid()
        try:
            outcome["value"] = function()
        except BaseException as error:  # SystemExit from an adapter must not end the run
            outcome["error"] = error

    worker = threading.Thread(target=target, name=CALL_THREAD_NAME, daemon=True)
    worker.start()
    worker.join(max(seconds, 0.0))
    if worker.is_alive():
        raise CallTimedOut(f"no answer within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


class TimeBudget:
    """The time adapter code may take for one case. Only time spent inside
    adapter calls counts, so slow judging of a large case never eats into it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.remaining = seconds

    def call(self, function: Callable[[], T]) -> T:
        if self.remaining <= 0:
            raise CallTimedOut(f"it used up its {self.seconds:g} s for this case")
        started = time.monotonic()
        try:
            return call_with_timeout(function, self.remaining)
        except CallTimedOut:
            raise CallTimedOut(f"no answer within {self.seconds:g} s") from None
        finally:
            self.remaining -= time.monotonic() - started
