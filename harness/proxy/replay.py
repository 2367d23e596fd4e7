"""The replay upstream: a real HTTP server on 127.0.0.1 answering from a cassette.

A proxy under test forwards its requests here instead of to a provider. The
server answers each request with the recorded response of the interaction
it matches (``matching.py``): JSON bodies whole, event streams event by event
(one HTTP chunk per event, flushed, bytes exactly as recorded), so a proxy
that buffers or breaks streaming is exercised as a provider would exercise
it. Every request is recorded exactly as received (raw bytes and parsed
JSON) with the interaction it matched or the near miss that explains why it
matched none. An unmatched request gets HTTP 404 with a JSON error body
naming the nearest recording and what differed; 404 because clients do not
retry it (OpenAI and Anthropic SDKs retry 408, 409, 429 and 5xx). When the
driver says where the case is (``answer_by_position``), an unmatched request
of the same kind as the recording at that position (same endpoint, readable
in the upstream's dialect, same stream choice: ``matching.position_refusal``)
is answered with that recording instead, and the miss is still recorded, so
the proxy's answer can be judged although its request was wrong. A
forwarded body larger than the output limit (32 MB, or 4x the largest
recorded request) is not read: it gets HTTP 413 and is recorded as a miss.

The cassette can be swapped between cases (``serve``), so one server, and
the one upstream URL a proxy was started with, lasts a whole run.

Credentials never reach a record: a secret query parameter (Gemini's
``key=``) is taken out of the path before anything else reads it, and the
values of secret headers (``x-goog-api-key``, ``Authorization``) are replaced.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from toolwire.harness import json_text
from toolwire.harness.corpus.case import Interaction
from toolwire.harness.errors import ToolwireError
from toolwire.harness.proxy.matching import (
    Matcher,
    RequestKey,
    find_match,
    nearest_miss,
    position_refusal,
)
from toolwire.harness.proxy.replay_http import (
    Server,
    handler_for,
)
from toolwire.harness.wire_values import INPUT_FACTOR, MAX_OUTPUT_CHARS

LOOPBACK = "127.0.0.1"


class ReplayError(ToolwireError):
    exit_code = 3


@dataclass(frozen=True)
class ReceivedRequest:
    """One request exactly as the replay upstream received it."""

    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    raw: bytes
    body: Any  # the parsed JSON, or None when the body is not JSON
    matched: int | None  # the recorded interaction answered (0-based)
    miss: str | None = None  # why no recording matched
    # The recording answered after a miss, by the case's position (0-based).
    by_position: int | None = None

    @property
    def body_or_text(self) -> Any:
        return self.body if self.body is not None else self.raw.decode("utf-8", "replace")


class ReplayUpstream:
    """Start with ``start()`` (or ``with``), load a case with ``serve()``."""

    def __init__(
        self, matcher: Matcher | None = None, port: int = 0, keep_secrets: bool = False
    ) -> None:
        self._matcher = matcher or Matcher()
        self._port = port
        # Only a test standing in for a provider keeps them, to check a key did travel.
        self.keep_secrets = keep_secrets
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._recordings: tuple[Interaction, ...] = ()
        self._keys: tuple[RequestKey, ...] = ()
        self._used: set[int] = set()
        self._received: list[ReceivedRequest] = []
        self._position: int | None = None
        self.max_body = MAX_OUTPUT_CHARS  # bytes of a forwarded body read at most

    # --- lifecycle -----------------------------------------------------------------

    def start(self) -> ReplayUpstream:
        if self._server is not None:
            return self
        try:
            server = Server((LOOPBACK, self._port), handler_for(self))
        except OSError as error:
            raise ReplayError(
                f"the replay upstream cannot listen on {LOOPBACK}:{self._port}: {error}",
                hint="choose another upstream port, or 0 for any free one",
            ) from error
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> ReplayUpstream:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise ReplayError("the replay upstream is not running")
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    # --- the cassette and what was received ------------------------------------------

    def serve(self, interactions: Sequence[Interaction], matcher: Matcher | None = None) -> None:
        """Answer from ``interactions`` from now on; forget what was received."""
        matcher = matcher or self._matcher
        keys = tuple(
            matcher.key(i.method, path_of(i.uri), _json_or_none(i.request_body_text))
            for i in interactions
        )
        largest = max((len(i.request_body_text or "") for i in interactions), default=0)
        with self._lock:
            self.max_body = max(MAX_OUTPUT_CHARS, INPUT_FACTOR * largest)
            self._matcher = matcher
            self._recordings = tuple(interactions)
            self._keys = keys
            self._used = set()
            self._received = []
            self._position = None

    def answer_by_position(self, position: int | None) -> None:
        """Answer a request that matches nothing with recording ``position``
        (0-based: the interaction the case is at), when it is the same kind of
        call (``matching.position_refusal``); None answers a miss with 404."""
        with self._lock:
            self._position = position

    def received(self) -> tuple[ReceivedRequest, ...]:
        with self._lock:
            return tuple(self._received)

    def answer_for(
        self, method: str, path: str, headers: tuple[tuple[str, str], ...], raw: bytes
    ) -> tuple[Interaction | None, str | None]:
        """Match, record, and say what to answer: a recording, or the miss."""
        body = _json_or_none(raw.decode("utf-8", "replace")) if raw else None
        with self._lock:
            key = self._matcher.key(method, path, body)
            index = find_match(key, self._keys, self._used)
            if index is not None:
                self._used.add(index)
                self._received.append(ReceivedRequest(method, path, headers, raw, body, index))
                return self._recordings[index], None
            miss = _describe_miss(method, path, key, self._keys)
            position = self._position
            if position is not None and 0 <= position < len(self._recordings):
                recording = self._recordings[position]
                refusal = position_refusal(
                    self._matcher.dialect,
                    (method, path, body),
                    (recording.method, path_of(recording.uri)),
                    recording.is_stream(),
                )
                if refusal is None:
                    self._received.append(
                        ReceivedRequest(method, path, headers, raw, body, None, miss, position)
                    )
                    return recording, miss
                miss = (
                    f"{miss}; recorded interaction {position + 1}, where the case is, was not "
                    f"served in its place because {refusal}, so the proxy's answer cannot be "
                    "judged"
                )
            self._received.append(ReceivedRequest(method, path, headers, raw, body, None, miss))
            return None, miss

    def refuse_unread(
        self, method: str, path: str, headers: tuple[tuple[str, str], ...], why: str
    ) -> str:
        miss = f"the forwarded {method} {path} body {why}; it was not read"
        with self._lock:
            self._received.append(ReceivedRequest(method, path, headers, b"", None, None, miss))
        return miss


def _describe_miss(method: str, path: str, key: RequestKey, keys: Sequence[RequestKey]) -> str:
    if not keys:
        return f"no cassette is loaded, so nothing answers {method} {path}"
    near = nearest_miss(key, keys)
    detail = f"; {near.describe()}" if near is not None else ""
    return f"no recorded request matches {method} {path}{detail}"


def path_of(uri: str) -> str:
    """The path and query of a recorded URL: what a client sends on the request line."""
    parts = urlsplit(uri)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _json_or_none(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json_text.loads(text)
    except json.JSONDecodeError:
        return None
