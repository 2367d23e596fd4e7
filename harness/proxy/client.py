"""Sending a case's request to a proxy and reading its answer, never hanging.

Every way a proxy can misbehave on the transport becomes one line in
``ProxyAnswer.failure``: nothing listening (refused), no answer in time,
connection reset, a body cut off midway (the chunked or sized body ends
early), or a stream that stops sending. The whole exchange has one deadline:
the socket timeout is re-armed with the time left before every read, so a
proxy that trickles bytes cannot stretch it. The body is read up to the
output limit (``max_body`` bytes): a proxy that answers a gigabyte costs that
bound, not the gigabyte, and its answer is a failure saying so.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.harness.sse import parse_sse
from toolwire.harness.wire_values import INPUT_FACTOR, MAX_OUTPUT_CHARS

READ_SIZE = 65536


@dataclass(frozen=True)
class ProxyAnswer:
    """What came back downstream: the status and body as far as they arrived."""

    status: int | None
    content_type: str
    body: bytes
    failure: str | None = None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def is_event_stream(self) -> bool:
        return self.content_type.split(";", 1)[0].strip().lower() == "text/event-stream"

    @property
    def is_success(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post_json(
    host: str,
    port: int,
    path: str,
    body: Any,
    headers: Mapping[str, str],
    timeout: float,
    max_body: int | None = None,
) -> ProxyAnswer:
    """POST ``body`` and read the answer; ``max_body`` bytes at most (default:
    the output limit of toolwire.harness.wire_values, or 4x the request)."""
    deadline = time.monotonic() + timeout
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    if max_body is None:
        max_body = max(MAX_OUTPUT_CHARS, INPUT_FACTOR * len(data))
    connection = http.client.HTTPConnection(host, port, timeout=max(timeout, 0.01))
    where = f"the proxy at {host}:{port}"
    try:
        try:
            connection.request(
                "POST", path, body=data, headers={"Content-Type": "application/json", **headers}
            )
            response = connection.getresponse()
        except ConnectionRefusedError:
            return _failed(
                f"{where} refused the connection: nothing listens there "
                "(start the proxy, or let --proxy-cmd start it)"
            )
        except TimeoutError:
            return _failed(
                f"{where} sent no answer within {timeout:g} s (raise ?timeout= or --timeout if it "
                "is slow)"
            )
        except (ConnectionError, http.client.HTTPException, OSError) as error:
            return _failed(f"{where} dropped the connection without answering ({_name(error)})")
        return _read_body(connection, response, deadline, timeout, where, max_body)
    finally:
        connection.close()


def _read_body(
    connection: http.client.HTTPConnection,
    response: http.client.HTTPResponse,
    deadline: float,
    timeout: float,
    where: str,
    max_body: int,
) -> ProxyAnswer:
    status = response.status
    content_type = response.getheader("Content-Type") or ""
    chunks: list[bytes] = []
    size = 0
    failure = None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if connection.sock is not None:
                connection.sock.settimeout(left)
            piece = response.read1(min(READ_SIZE, max_body + 1 - size))
            if not piece:
                break
            chunks.append(piece)
            size += len(piece)
            if size > max_body:
                return ProxyAnswer(
                    status,
                    content_type,
                    b"",
                    f"{where} answered with more than {_size(max_body)}, the limit "
                    "on an output; toolwire stopped reading it (is it repeating or padding "
                    "its input?)",
                )
    except TimeoutError:
        failure = (
            f"{where} stopped sending midway: {_progress(chunks)} received, then the "
            f"{timeout:g} s deadline passed"
        )
    except http.client.IncompleteRead as error:
        chunks.append(bytes(error.partial))
        failure = (
            f"{where} closed the connection midway through the body: {_progress(chunks)} "
            "received before it ended"
        )
    except (ConnectionError, http.client.HTTPException, OSError) as error:
        failure = (
            f"{where} broke the connection midway through the body ({_name(error)}): "
            f"{_progress(chunks)} received"
        )
    return ProxyAnswer(status, content_type, b"".join(chunks), failure)


def _progress(chunks: list[bytes]) -> str:
    body = b"".join(chunks)
    events = len(parse_sse(body.decode("utf-8", "replace")))
    return f"{len(body)} bytes ({events} complete events)"


def _size(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB" if count >= 100_000 else f"{count:,} bytes"


def _failed(message: str) -> ProxyAnswer:
    return ProxyAnswer(None, "", b"", message)


def _name(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
