"""Telling a Ctrl-C from an adapter that raises ``KeyboardInterrupt`` itself.

Importing or creating an adapter runs its code, which may raise anything,
``KeyboardInterrupt`` and other ``BaseException`` s included: that is the
adapter's error (one line, exit 2), as it is when ``convert`` raises it.
A Ctrl-C the user pressed meanwhile is not, and must still stop toolwire;
``watch_interrupts`` notes whether SIGINT really arrived.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType


@dataclass
class InterruptWatch:
    signalled: bool = False

    def by_user(self, error: BaseException) -> bool:
        """Whether ``error`` is the user's Ctrl-C, not the adapter's own raise."""
        return isinstance(error, KeyboardInterrupt) and self.signalled


@contextmanager
def watch_interrupts() -> Iterator[InterruptWatch]:
    """Note SIGINT while the block runs (only the main thread can: elsewhere
    every KeyboardInterrupt counts as the adapter's)."""
    watch = InterruptWatch()
    if threading.current_thread() is not threading.main_thread():
        yield watch
        return
    previous = signal.getsignal(signal.SIGINT)

    def noted(signum: int, frame: FrameType | None) -> None:
        watch.signalled = True
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, noted)
    try:
        yield watch
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
