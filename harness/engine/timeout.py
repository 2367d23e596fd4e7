"""Calling adapter code with a deadline.

Python cannot kill a thread, so a call that overruns is abandoned in a daemon
thread and reported; the run goes on. Output is deep-copied by the caller,
so an abandoned call cannot change what was judged.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class CallTimedOut(Exception):
    pass


def call_with_timeout(function: Callable[[], T], seconds: float) -> T:
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = function()
        except BaseException as error:  # SystemExit from an adapter must not end the run
            outcome["error"] = error

    worker = threading.Thread(target=target, name="toolwire-adapter-call", daemon=True)
    worker.start()
    worker.join(max(seconds, 0.0))
    if worker.is_alive():
        raise CallTimedOut(f"no answer within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
