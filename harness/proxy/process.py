"""Starting and stopping a proxy for a run (``--proxy-cmd``).

The command is split like a shell would (no shell runs it), then each word
gets its placeholders: ``{upstream_url}`` (the replay upstream,
``http://127.0.0.1:PORT``), ``{upstream_port}``, ``{port}`` (where the proxy
must listen) and ``{host}`` (``127.0.0.1``). The proxy runs in its own
process group with its output in a log file; the harness waits until its
port accepts a connection (and, when a ready path is given, until that path
answers below 500), and shows the log's tail if it exits or never gets
ready. Stopping sends SIGTERM to the group, then SIGKILL after a grace period.
With ``keep_log`` the output goes to that file instead and stays after the run
(``TOOLWIRE_PROXY_LOG``, docs/proxies.md): where to look when a verdict needs
the proxy's side of the story.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

from toolwire.harness.errors import ToolwireError
from toolwire.harness.redaction import redact

HOST = "127.0.0.1"
PLACEHOLDERS = ("upstream_url", "upstream_port", "port", "host")
LOG_TAIL_LINES = 15
STOP_GRACE = 5.0


class ProxyCommandError(ToolwireError):
    """A bad ``--proxy-cmd`` (a usage error)."""

    exit_code = 2


class ProxyStartError(ToolwireError):
    """The proxy did not start: the harness cannot run (exit 3), its log says why."""

    exit_code = 3

    def __init__(self, message: str, log_tail: str, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.log_tail = log_tail

    def __str__(self) -> str:
        text = super().__str__()
        if not self.log_tail:
            return f"{text}; its log is empty"
        lines = "\n".join(f"  | {line}" for line in self.log_tail.splitlines())
        return f"{text}; last lines of its log:\n{lines}"


def free_port() -> int:
    """A port on 127.0.0.1 free right now (the proxy binds it soon after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def command_words(template: str, upstream_url: str, upstream_port: int, port: int) -> list[str]:
    try:
        words = shlex.split(template)
    except ValueError as error:
        raise ProxyCommandError(f"--proxy-cmd {template!r} does not split: {error}") from error
    if not words:
        raise ProxyCommandError("--proxy-cmd is empty", hint="give the command that starts it")
    values = {
        "upstream_url": upstream_url,
        "upstream_port": str(upstream_port),
        "port": str(port),
        "host": HOST,
    }
    try:
        return [word.format_map(values) for word in words]
    except (KeyError, ValueError, IndexError) as error:
        raise ProxyCommandError(
            f"--proxy-cmd {template!r} has an unknown placeholder ({error})",
            hint=f"placeholders: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}; "
            "write {{ and }} for literal braces",
        ) from None


class ProxyProcess:
    def __init__(
        self,
        words: list[str],
        port: int,
        ready_timeout: float = 30.0,
        ready_path: str | None = None,
        keep_log: Path | None = None,
    ) -> None:
        self.words = words
        self.port = port
        self.ready_timeout = ready_timeout
        self.ready_path = ready_path
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._log_path: Path | None = None
        self._keep_log = keep_log

    @property
    def pid(self) -> int | None:
        """The proxy's process id while it runs (benchmarks read its CPU time)."""
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        if self._keep_log is not None:
            self._log_path = self._keep_log
            self._log = self._open_kept_log(self._keep_log)
        else:
            handle, name = tempfile.mkstemp(prefix="toolwire-proxy-", suffix=".log")
            self._log_path = Path(name)
            self._log = os.fdopen(handle, "wb")
        try:
            self._process = subprocess.Popen(
                self.words,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: stopping it stops its children
            )
        except OSError as error:
            self._close_log()
            raise ProxyCommandError(
                f"--proxy-cmd could not start {self.words[0]!r}: {error}",
                hint="check the program name and that it is installed",
            ) from error
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            code = self._process.poll()
            if code is not None:
                tail = self.log_tail()
                self.cleanup()
                raise ProxyStartError(f"the proxy exited with status {code} before answering", tail)
            if self._answers():
                return
            time.sleep(0.1)
        tail = self.log_tail()
        self.cleanup()
        what = f"GET {self.ready_path}" if self.ready_path else "a TCP connection"
        raise ProxyStartError(
            f"the proxy did not accept {what} on {HOST}:{self.port} within "
            f"{self.ready_timeout:g} s",
            tail,
            hint="does it listen on {port}? is it slow to start?",
        )

    def _answers(self) -> bool:
        try:
            with socket.create_connection((HOST, self.port), timeout=0.5):
                pass
        except OSError:
            return False
        if self.ready_path is None:
            return True
        connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
        try:
            connection.request("GET", self.ready_path)
            return connection.getresponse().status < 500
        except (OSError, http.client.HTTPException):
            return False
        finally:
            connection.close()

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            _signal_group(process, signal.SIGTERM)
            try:
                process.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait(timeout=STOP_GRACE)
        self._close_log()

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The status the proxy exited with, None while it runs (after ``wait`` s)."""
        if self._process is None:
            return None
        try:
            return self._process.wait(timeout=wait) if wait > 0 else self._process.poll()
        except subprocess.TimeoutExpired:
            return None

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        if self._log is not None:
            self._log.flush()
        if self._log_path is None or not self._log_path.exists():
            return ""
        text = self._log_path.read_bytes().decode("utf-8", "replace")
        return redact("\n".join(text.rstrip().splitlines()[-lines:]))  # a proxy may log its key

    def _open_kept_log(self, path: Path) -> IO[bytes]:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return path.open("wb")
        except OSError as error:
            raise ProxyCommandError(
                f"cannot write the proxy's log to {path}: {error.strerror}",
                hint="point TOOLWIRE_PROXY_LOG at a writable file, or unset it",
            ) from None

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def cleanup(self) -> None:
        self.stop()
        if self._log_path is not None and self._keep_log is None:
            self._log_path.unlink(missing_ok=True)
        self._log_path = None


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)  # the group we created for it, by its id
