"""Talking to a proxy: every transport failure becomes one line, never a hang."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from toolwire.harness.proxy.client import post_json
from toolwire.harness.proxy.process import free_port

Behaviour = Callable[[socket.socket], None]
BODY = {"model": "m", "messages": []}


@contextmanager
def raw_server(behaviour: Behaviour) -> Iterator[int]:
    """A one-connection TCP server on 127.0.0.1 doing ``behaviour`` with the socket."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    done = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            behaviour(connection)
            done.wait(5)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        done.set()
        listener.close()
        thread.join(5)


def test_a_json_answer_is_read_whole() -> None:
    payload = b'{"ok": true}'

    def answer(sock: socket.socket) -> None:
        sock.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(payload)).encode()
            + b"\r\n\r\n"
            + payload
        )

    with raw_server(answer) as port:
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 2.0)
    assert result.failure is None
    assert result.status == 200 and result.is_success
    assert result.body == payload
    assert not result.is_event_stream


def test_an_error_status_is_an_answer_not_a_transport_failure() -> None:
    def answer(sock: socket.socket) -> None:
        sock.sendall(b"HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\nboom")

    with raw_server(answer) as port:
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 2.0)
    assert result.failure is None
    assert result.status == 500 and not result.is_success
    assert result.text == "boom"


def test_nothing_listening_is_refused() -> None:
    result = post_json("127.0.0.1", free_port(), "/v1/messages", BODY, {}, 2.0)
    assert result.status is None
    assert result.failure is not None
    assert "refused the connection: nothing listens there" in result.failure


def test_no_answer_in_time_is_a_timeout_not_a_hang() -> None:
    with raw_server(lambda sock: None) as port:
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 0.3)
    assert result.failure is not None
    assert "sent no answer within 0.3 s" in result.failure


def test_a_reset_before_answering_is_named() -> None:
    def reset(sock: socket.socket) -> None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()

    with raw_server(reset) as port:
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 2.0)
    assert result.failure is not None
    assert "dropped the connection without answering" in result.failure


STREAM_HEAD = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
)
EVENT = b'data: {"x": 1}\n\n'
CHUNK = f"{len(EVENT):X}\r\n".encode() + EVENT + b"\r\n"


def test_a_stream_closed_midway_says_how_much_arrived() -> None:
    def close_midway(sock: socket.socket) -> None:
        sock.sendall(STREAM_HEAD + CHUNK + CHUNK)
        sock.shutdown(socket.SHUT_WR)

    with raw_server(close_midway) as port:
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 2.0)
    assert result.status == 200
    assert result.is_event_stream
    assert result.failure is not None
    assert "closed the connection midway through the body" in result.failure
    assert "(2 complete events)" in result.failure
    assert result.body == EVENT + EVENT


def test_a_stream_that_stalls_is_stopped_by_the_deadline() -> None:
    with raw_server(lambda sock: sock.sendall(STREAM_HEAD + CHUNK)) as port:
        started = time.monotonic()
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 0.5)
        elapsed = time.monotonic() - started
    assert result.failure is not None
    assert "stopped sending midway" in result.failure
    assert "(1 complete events)" in result.failure
    assert elapsed < 2.0


def test_a_trickling_stream_cannot_stretch_the_deadline() -> None:
    def trickle(sock: socket.socket) -> None:
        sock.sendall(STREAM_HEAD)
        for _ in range(20):
            time.sleep(0.1)
            try:
                sock.sendall(CHUNK)
            except OSError:
                return

    with raw_server(trickle) as port:
        started = time.monotonic()
        result = post_json("127.0.0.1", port, "/v1/messages", BODY, {}, 0.5)
        elapsed = time.monotonic() - started
    assert result.failure is not None and "deadline passed" in result.failure
    assert elapsed < 1.5
