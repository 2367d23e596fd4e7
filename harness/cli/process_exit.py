"""How the ``toolwire`` process ends: signals, and the exit status that is kept.

* SIGTERM (what CI cancellation sends) is turned into ``Terminated``, an
  exception raised in the main thread, as Ctrl-C raises KeyboardInterrupt:
  the ``finally`` blocks that stop a ``cmd:`` adapter's process, a
  ``--proxy-cmd`` proxy and worker processes run either way. Ctrl-C ends the
  command with 130, SIGTERM with 143 (128 + the signal number, as a shell
  reports a process killed by it).
* The exit status the command decided is the process's exit status. Python
  runs ``atexit`` hooks after the command returns, and an adapter's hook that
  calls ``os._exit(0)`` would replace a failing run's 3 with a clean 0 (a
  hook can hold ``os._exit`` itself, so no wrapper around it can stop that).
  So once the command has returned, its output is flushed and the process
  ends with its status at once: ``atexit`` hooks do not run. toolwire's own
  clean-up never relies on them (context managers and ``finally`` blocks stop
  what it started); an adapter that must release something does so itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType
from typing import NoReturn

EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived. A KeyboardInterrupt, so whatever stops cleanly on
    Ctrl-C stops cleanly on SIGTERM too."""


def interrupted_exit(error: KeyboardInterrupt) -> tuple[str, int]:
    """The line to print and the exit status for Ctrl-C or SIGTERM."""
    if isinstance(error, Terminated):
        return "toolwire: stopped by SIGTERM", EXIT_TERMINATED
    return "toolwire: interrupted (Ctrl-C)", EXIT_INTERRUPTED


def install_sigterm_handler() -> None:
    """Raise ``Terminated`` in the main thread on the first SIGTERM; later ones
    (while the adapter and proxy are being stopped) are ignored."""

    def handler(_signum: int, _frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated

    signal.signal(signal.SIGTERM, handler)


def exit_process(status: int) -> NoReturn:
    """Flush the output and end the process with ``status`` now, before any
    ``atexit`` hook (an adapter's among them) can change it."""
    # The command is over: a late Ctrl-C or SIGTERM must not print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _flush()
    os._exit(status)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
