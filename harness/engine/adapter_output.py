"""Keeping what adapters print off toolwire's standard output.

``toolwire run --format json`` prints the results document on stdout; an
adapter that prints (debug lines, a progress bar, a subprocess writing to the
stdout it inherited) would corrupt it. While adapters run, stdout is pointed
at stderr: ``sys.stdout`` and, when stdout is the process's descriptor 1,
the descriptor itself, so native code and subprocesses follow.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator

STDOUT_FD = 1
STDERR_FD = 2


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    sys.stdout.flush()
    saved = _redirect_descriptor() if _is_descriptor(sys.stdout, STDOUT_FD) else None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, STDOUT_FD)
            os.close(saved)


def send_stdout_to_stderr_for_good() -> None:
    """For a worker process: its stdout is never toolwire's to print results on."""
    sys.stdout.flush()
    if _is_descriptor(sys.stdout, STDOUT_FD):
        os.close(_redirect_descriptor())
    sys.stdout = sys.stderr


def _is_descriptor(stream: object, descriptor: int) -> bool:
    try:
        return stream.fileno() == descriptor and _fd_open(STDERR_FD)  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return False


def _fd_open(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return False
    return True


def _redirect_descriptor() -> int:
    saved = os.dup(STDOUT_FD)
    os.dup2(STDERR_FD, STDOUT_FD)
    return saved
