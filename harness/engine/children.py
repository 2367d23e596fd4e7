"""Child processes an in-process adapter started, ended when its case overruns.

An adapter that runs a helper program and waits for it (``subprocess.run``)
hangs with it. The case times out, but Python cannot stop the waiting
thread, and the helper would run on after toolwire, holding its output
pipes open (a caller reading them to the end would wait for ever). So the
children of this process are noted when a case starts; when a call of the
case overruns, every child that appeared since, and everything it started,
is killed: the waiting call returns and nothing is left behind. Children
alive before the case (a helper the adapter keeps across cases, a ``cmd:``
adapter's process) are left alone, and so is every child of a case that
ends in time: an adapter may start a helper lazily and keep it.

Linux only (children are read from ``/proc``); elsewhere nothing is noted
and nothing ended: use ``--jobs 2``, whose workers are killed with their
whole process at the hard limit.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

_PROC = Path("/proc")


def child_pids(pid: int | None = None) -> frozenset[int] | None:
    """The direct children of ``pid`` (default: this process), None where
    the platform cannot tell."""
    tasks = _PROC / str(pid if pid is not None else os.getpid()) / "task"
    found: set[int] = set()
    try:
        names = os.listdir(tasks)
    except OSError:
        return None
    for name in names:
        try:
            text = (tasks / name / "children").read_text(encoding="ascii")
        except FileNotFoundError:
            continue  # the thread ended meanwhile
        except OSError:
            return None  # a kernel without /proc/PID/task/TID/children
        found.update(int(word) for word in text.split())
    return frozenset(found)


def end_children_since(before: frozenset[int] | None) -> list[int]:
    """Kill every child of this process not in ``before``, with all its
    descendants; return the pids killed (the children first)."""
    if before is None:
        return []
    now = child_pids()
    if now is None:
        return []
    doomed = [pid for pid in sorted(now - before)]
    seen = set(doomed)
    index = 0
    while index < len(doomed):  # breadth first: the whole tree below each child
        for grandchild in sorted(child_pids(doomed[index]) or ()):
            if grandchild not in seen:
                seen.add(grandchild)
                doomed.append(grandchild)
        index += 1
    for pid in doomed:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return doomed
