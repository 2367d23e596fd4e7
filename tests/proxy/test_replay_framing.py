"""The replay upstream and a proxy that frames a request wrongly, or hangs up.

A forwarded body whose length cannot be known is refused with 400 and
recorded as a miss, as a body past the limit is (413); a proxy that closes
the connection mid-request leaves nothing on the terminal."""

from __future__ import annotations

import http.client
import json
import socket
import struct

import pytest

from toolwire.harness.proxy.replay import ReplayUpstream


def _exchange(upstream: ReplayUpstream, head: bytes) -> tuple[int, dict[str, object]]:
    with socket.create_connection(("127.0.0.1", upstream.port), timeout=30) as connection:
        connection.sendall(head)
        reply = http.client.HTTPResponse(connection)
        reply.begin()
        return reply.status, json.loads(reply.read())


@pytest.mark.parametrize(
    ("framing", "said"),
    [
        (b"Content-Length: twelve\r\n\r\n{}", "Content-Length that is no number of bytes"),
        (b"Content-Length: -2\r\n\r\n{}", "Content-Length that is no number of bytes"),
        (b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", "chunk size"),
    ],
)
def test_a_body_of_unknown_length_is_refused_and_recorded(
    framing: bytes, said: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with ReplayUpstream() as upstream:
        upstream.serve(())
        status, body = _exchange(
            upstream, b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n" + framing
        )
        [received] = upstream.received()
    assert status == 400
    error = body["error"]
    assert isinstance(error, dict) and said in str(error["message"])
    assert received.miss is not None and said in received.miss
    assert "it was not read" in received.miss
    assert capfd.readouterr().err == ""


def test_a_proxy_that_hangs_up_mid_request_prints_nothing(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with ReplayUpstream() as upstream:
        upstream.serve(())
        for _ in range(3):
            connection = socket.create_connection(("127.0.0.1", upstream.port), timeout=30)
            connection.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-")
            # A reset, not a clean close: the server's read fails.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
        # The server still answers the next request.
        status, _ = _exchange(
            upstream,
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
        )
    assert status == 404  # no cassette loaded: a miss, not a crash
    assert capfd.readouterr().err == ""
