"""What toolwire reads from an adapter or a proxy is bounded while it is read
(docs/hostile-input.md, rows H1-H3).

The output limit (harness/wire_values.py: 32 MB, or 4x the input)
used to apply only once a whole answer was in memory: a 1 GB proxy body
peaked at 5 GB, a 1.5 GB ``cmd:`` line killed the reader thread. Each test
below is sent an answer that never ends: a reader that did not stop at the
bound would never return.
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from tests.hostile.hanging_children import __file__ as CHILDREN
from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.adapters.cmd import AdapterProcessError, CmdAdapter
from toolwire.harness.proxy.client import post_json
from toolwire.harness.proxy.replay import ReplayUpstream
from toolwire.harness.proxy.replay_http import Server as QuietServer
from toolwire.harness.wire_values import MAX_OUTPUT_CHARS

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


class _Endless(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()  # no length: the body ends when the connection does, i.e. never
        piece = b"[" * 65536
        try:
            while True:
                self.wfile.write(piece)
        except OSError:
            return


@pytest.fixture
def endless_proxy() -> Iterator[int]:
    server = QuietServer(("127.0.0.1", 0), _Endless)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def test_h1_a_proxy_answer_is_read_up_to_the_output_limit(endless_proxy: int) -> None:
    answer = post_json("127.0.0.1", endless_proxy, "/v1/chat/completions", REQUEST, {}, 60)
    assert answer.status == 200
    assert answer.body == b""  # nothing of it is kept, let alone judged
    assert answer.failure is not None
    assert f"answered with more than {MAX_OUTPUT_CHARS / 1e6:.1f} MB" in answer.failure


def test_h1_the_limit_grows_with_a_large_request(endless_proxy: int) -> None:
    big = {**REQUEST, "padding": "x" * 10_000_000}  # 4x its size is more than 32 MB
    answer = post_json("127.0.0.1", endless_proxy, "/", big, {}, 60)
    assert answer.failure is not None
    assert "answered with more than 40.0 MB" in answer.failure


def test_h2_the_replay_upstream_does_not_read_a_body_past_the_limit() -> None:
    with ReplayUpstream() as upstream:
        upstream.serve(())
        connection = socket.create_connection(("127.0.0.1", upstream.port), timeout=30)
        with connection:
            # It claims a terabyte and sends a few bytes: a reader that trusted
            # Content-Length would wait for (or allocate) the rest.
            connection.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n{"
            )
            reply = http.client.HTTPResponse(connection)
            reply.begin()
            assert reply.status == 413
            body = json.loads(reply.read())
        [received] = upstream.received()
        assert received.miss is not None and "it was not read" in received.miss
        assert "larger than 32.0 MB" in body["error"]["message"]


def test_h2_a_chunked_body_past_the_limit_is_refused_as_it_arrives() -> None:
    with ReplayUpstream() as upstream:
        upstream.serve(())
        upstream.max_body = 100_000
        connection = socket.create_connection(("127.0.0.1", upstream.port), timeout=30)
        with connection:
            connection.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
            try:
                for _ in range(4):  # 256 KB: past the limit, and then it stops reading
                    connection.sendall(chunk)
            except OSError:
                pass  # it may close on us once it has refused
            reply = http.client.HTTPResponse(connection)
            reply.begin()
            assert reply.status == 413


def test_h3_a_cmd_adapter_line_is_read_up_to_the_output_limit() -> None:
    adapter = CmdAdapter.launch(f"{sys.executable} {CHILDREN} endless-line")
    try:
        with pytest.raises(AdapterProcessError) as caught:
            adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
    finally:
        adapter.close()
    message = str(caught.value)
    assert f"a line longer than {MAX_OUTPUT_CHARS:,} bytes" in message
    assert "it was not read" in message
    assert "it will be restarted for the next call" in message


def test_h3_through_the_command_it_is_an_error_verdict_not_a_dead_reader() -> None:
    from tests.hostile.cli import toolwire

    adapter = f"cmd:{sys.executable} {CHILDREN} endless-line"
    result = toolwire(
        "run", "--adapter", adapter, "--select", "single-tool/weather-openai", cwd=PROJECT_ROOT
    )
    assert result.returncode == 3
    assert "a line longer than" in result.stdout + result.stderr
