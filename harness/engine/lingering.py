"""Not speed but an end: an adapter's leftover non-daemon thread would keep `run` from exiting.

Python waits for every non-daemon thread before the process exits, so an
adapter that starts one that never ends (a background poller, a forgotten
server) would keep ``toolwire run`` from ever returning, after the results
were printed. The command notes the threads that appeared during the run
and, if any is still alive at the end, says so on stderr and exits at once.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable


def running_threads() -> set[threading.Thread]:
    return set(threading.enumerate())


def exit_if_threads_linger(
    before: set[threading.Thread], status: int, warn: Callable[[str], None]
) -> None:
    """Return when no thread started since ``before`` is left; else warn and exit."""
    lingering = [
        thread
        for thread in threading.enumerate()
        if thread not in before and not thread.daemon and thread.is_alive()
    ]
    if not lingering:
        return
    names = ", ".join(sorted(thread.name for thread in lingering)[:5])
    warn(
        f"toolwire: warning: the adapter left {len(lingering)} thread(s) running ({names}); "
        "exiting without waiting for them"
    )
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
