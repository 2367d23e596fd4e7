"""The replay upstream's HTTP side: what travels on the wire.

The server (one daemon thread per connection, no traceback for a proxy that
hangs up), reading a forwarded request's body (refusing, as a recorded
miss, one past the limit or whose length cannot be known), writing a
recorded answer (JSON whole, an event stream one chunk per event), and
keeping credentials out of what is recorded. ``replay.py`` decides which
recording answers; this module only carries it.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode, urlsplit

from toolwire.harness.corpus.case import Interaction
from toolwire.harness.corpus.scrub import is_secret_header, is_secret_query_parameter

MISMATCH_STATUS = 404
TOO_LARGE_STATUS = 413
BAD_REQUEST_STATUS = 400
# Recorded headers that described the recorded transfer, not the body we send.
_HOP_HEADERS = frozenset(
    {"content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"}
)
# One event: everything up to and including the blank line that ends it.
_EVENT_BLOCK = re.compile(r".*?(?:\r\n\r\n|\n\n|\r\r|\Z)", re.DOTALL)


class Server(ThreadingHTTPServer):
    """One thread per connection, ended with the process. A proxy that hangs
    up mid-request prints nothing (its verdicts say what it did); anything
    else that stops a request is one line on stderr, not a traceback."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if error is None or isinstance(error, (ConnectionError, TimeoutError)):
            return
        host, port = client_address[:2]
        sys.stderr.write(
            f"toolwire replay upstream: the request from {host}:{port} stopped: "
            f"{type(error).__name__}: {error}\n"
        )


class _Unread(Exception):
    """A forwarded body the upstream does not read: past the limit, or framed
    so that its length cannot be known."""

    def __init__(self, why: str, status: int) -> None:
        super().__init__(why)
        self.why = why
        self.status = status


REDACTED = "<redacted>"


def without_secrets(path: str) -> str:
    """The request line's path without secret query parameters (``key=``)."""
    parts = urlsplit(path)
    if not parts.query:
        return path
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(name, value) for name, value in pairs if not is_secret_query_parameter(name)]
    if len(kept) == len(pairs):
        return path
    query = urlencode(kept, safe="/:")
    return (parts.path or "/") + (f"?{query}" if query else "")


def redacted_headers(headers: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((k, REDACTED if is_secret_header(k) else v) for k, v in headers)


def event_blocks(body: str) -> list[str]:
    """A recorded event-stream body cut after each event's blank line, bytes kept."""
    return [m.group(0) for m in _EVENT_BLOCK.finditer(body) if m.group(0)]


class Answerer(Protocol):
    """What the handler asks of the upstream (``replay.ReplayUpstream``)."""

    keep_secrets: bool
    max_body: int

    def answer_for(
        self, method: str, path: str, headers: tuple[tuple[str, str], ...], raw: bytes
    ) -> tuple[Interaction | None, str | None]: ...

    def refuse_unread(
        self, method: str, path: str, headers: tuple[tuple[str, str], ...], why: str
    ) -> str: ...


def handler_for(upstream: Answerer) -> type[BaseHTTPRequestHandler]:
    class ReplayHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "toolwire-replay"

        def log_message(self, format: str, *args: Any) -> None:
            return  # the harness reports what matters; no stderr noise

        def do_GET(self) -> None:
            self._handle()

        def do_POST(self) -> None:
            self._handle()

        def do_PUT(self) -> None:
            self._handle()

        def do_DELETE(self) -> None:
            self._handle()

        def _handle(self) -> None:
            headers = tuple(self.headers.items())
            if not upstream.keep_secrets:
                headers = redacted_headers(headers)
            path = without_secrets(self.path)
            try:
                try:
                    raw = self._read_body()
                except _Unread as unread:
                    self.close_connection = True  # the rest of the body is never read
                    refused = upstream.refuse_unread(self.command, path, headers, unread.why)
                    self._send_miss(refused, unread.status)
                    return
                recording, miss = upstream.answer_for(self.command, path, headers, raw)
                if recording is None:
                    self._send_miss(miss or "no recording matches")
                elif recording.is_stream():
                    self._send_stream(recording)
                else:
                    self._send_whole(recording)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the proxy went away; nothing to answer

        def _read_body(self) -> bytes:
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                return self._read_chunked()
            declared = self.headers.get("Content-Length") or "0"
            if not declared.strip().isdigit():
                raise _Unread(
                    f"has a Content-Length that is no number of bytes ({declared[:40]!r})",
                    BAD_REQUEST_STATUS,
                )
            length = int(declared)
            if length > upstream.max_body:
                raise _Unread(self._too_large(), TOO_LARGE_STATUS)
            return self.rfile.read(length) if length > 0 else b""

        def _too_large(self) -> str:
            return f"is larger than {upstream.max_body / 1_000_000:.1f} MB, the limit on an output"

        def _read_chunked(self) -> bytes:
            parts: list[bytes] = []
            total = 0
            while True:
                line = self.rfile.readline(1024).split(b";", 1)[0].strip()
                try:
                    size = int(line or b"0", 16)
                except ValueError:
                    raise _Unread(
                        f"has a chunk size that is no hexadecimal number ({line[:40]!r})",
                        BAD_REQUEST_STATUS,
                    ) from None
                if size == 0:
                    self.rfile.readline(1024)
                    return b"".join(parts)
                total += size
                if total > upstream.max_body:
                    raise _Unread(self._too_large(), TOO_LARGE_STATUS)
                parts.append(self.rfile.read(size))
                self.rfile.readline(1024)

        def _send_headers(self, recording: Interaction) -> None:
            self.send_response(recording.status_code, recording.status_message or None)
            for name, values in recording.response_headers.items():
                if name.lower() not in _HOP_HEADERS:
                    for value in values:
                        self.send_header(name, value)

        def _send_whole(self, recording: Interaction) -> None:
            data = recording.response_body_text.encode("utf-8")
            self._send_headers(recording)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_stream(self, recording: Interaction) -> None:
            self._send_headers(recording)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for block in event_blocks(recording.response_body_text):
                data = block.encode("utf-8")
                self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _send_miss(self, miss: str, status: int = MISMATCH_STATUS) -> None:
            message = f"toolwire replay upstream: {miss}"
            # Both error shapes at once: Anthropic's {"type": "error", "error": {...}}
            # and OpenAI's {"error": {"message", "type", ...}}.
            body = {
                "type": "error",
                "error": {"type": "toolwire_replay_mismatch", "message": message, "code": None},
            }
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return ReplayHandler
