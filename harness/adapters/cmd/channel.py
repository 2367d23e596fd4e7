"""A long-lived subprocess spoken to in lines: write one, read one, with a deadline.

Reader threads move stdout lines into a queue (so a read can time out) and
keep the tail of stderr (so a crash can be explained). A line is read with a
bound (``max_line`` bytes for stdout, set per call by the adapter from the
output limit; a few kilobytes per stderr line): a process that writes a
gigabyte without a newline costs that bound, not the gigabyte. The process runs in
its own process group; closing it asks politely (``shutdown`` then end of
stdin), then terminates, then kills the group it was started in.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Callable
from typing import IO, Any

from toolwire.harness.redaction import redact

STDERR_LINES = 20
STDERR_LINE_BYTES = 4096  # longer stderr lines are kept in pieces of this size
DEFAULT_MAX_LINE = 32_000_000
EXIT_GRACE = 2.0
_EOF = object()


class ChannelClosed(Exception):
    """The process ended (or closed its stdout)."""


class ChannelTimeout(Exception):
    """No line arrived in time."""


class LineTooLong(Exception):
    """A stdout line longer than ``max_line`` bytes; the rest of it was discarded."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a line longer than {limit:,} bytes")
        self.limit = limit


class _Oversize:
    def __init__(self, limit: int) -> None:
        self.limit = limit


class LineChannel:
    def __init__(self, words: list[str]) -> None:
        self.words = words
        self._process = subprocess.Popen(
            words,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self.max_line = DEFAULT_MAX_LINE  # bytes; read by the stdout thread per line
        assert self._process.stdout is not None and self._process.stderr is not None
        _pump(self._process.stdout, self._lines.put, lambda: self.max_line, end=True)
        _pump(self._process.stderr, self._stderr.append, lambda: STDERR_LINE_BYTES, end=False)

    def send(self, data: bytes) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as error:
            raise ChannelClosed(self.describe_exit()) from error

    def receive(self, timeout: float) -> str:
        """The next non-empty line from stdout."""
        while True:
            try:
                line = self._lines.get(timeout=max(timeout, 0.0))
            except queue.Empty:
                raise ChannelTimeout(f"no line within {timeout:g} s") from None
            if line is _EOF:
                self._lines.put(_EOF)  # later reads see the end too
                raise ChannelClosed(self.describe_exit())
            if isinstance(line, _Oversize):
                raise LineTooLong(line.limit)
            assert isinstance(line, str)
            if line.strip():
                return line

    def alive(self) -> bool:
        return self._process.poll() is None

    def describe_exit(self) -> str:
        try:
            code = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            what = "closed its stdout"
        else:
            what = f"exited with status {code}"
        tail = self.stderr_tail()
        return f"the adapter process {what}" + (f"; its stderr ends: {tail}" if tail else "")

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines of stderr, redacted: an adapter may print its key."""
        return redact(" | ".join(list(self._stderr)[-lines:]))

    def close(self, farewell: bytes | None = None) -> None:
        process = self._process
        if process.poll() is None and farewell is not None:
            with contextlib.suppress(ChannelClosed):
                self.send(farewell)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        process = self._process
        for signum in (signal.SIGTERM, signal.SIGKILL):
            if process.poll() is not None:
                return
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signum)  # the group started for it, by its id
            try:
                process.wait(timeout=EXIT_GRACE)
            except subprocess.TimeoutExpired:
                continue


def _pump(
    stream: IO[bytes], sink: Callable[[Any], None], bound: Callable[[], int], end: bool
) -> None:
    """Feed ``stream`` 's lines to ``sink`` from a daemon thread (then _EOF if
    ``end``). With ``end`` (stdout) a line longer than ``bound()`` bytes becomes
    one ``_Oversize`` and the rest of it is read and dropped; without (stderr)
    a long line arrives in pieces of ``bound()`` bytes."""

    def run() -> None:
        while True:
            limit = bound()
            raw = stream.readline(limit + 1 if end else limit)
            if not raw:
                break
            if end and len(raw) > limit and not raw.endswith(b"\n"):
                del raw
                sink(_Oversize(limit))
                _skip_rest_of_line(stream, limit)
                continue
            sink(raw.decode("utf-8", "replace").rstrip("\r\n"))
        if end:
            sink(_EOF)

    threading.Thread(target=run, daemon=True, name="toolwire-cmd-reader").start()


def _skip_rest_of_line(stream: IO[bytes], piece: int) -> None:
    while True:
        chunk = stream.readline(min(piece, 1 << 20))
        if not chunk or chunk.endswith(b"\n"):
            return
