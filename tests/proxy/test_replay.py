"""The replay upstream as a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tests.proxy.support import case
from toolwire.harness.proxy.matching import Matcher
from toolwire.harness.proxy.replay import ReplayError, ReplayUpstream
from toolwire.harness.proxy.replay_http import MISMATCH_STATUS, event_blocks
from toolwire.harness.sse import parse_sse

WEATHER = "single-tool/weather-openai"
STREAM = "streaming/parallel-openai"


@pytest.fixture
def replay() -> Iterator[ReplayUpstream]:
    with ReplayUpstream() as server:
        yield server


def _post(
    server: ReplayUpstream, path: str, body: bytes, headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("POST", path, body=body, headers=headers or {})
    return connection.getresponse()


def _recorded_body(case_id: str, index: int = 0) -> bytes:
    text = case(case_id).interactions[index].request_body_text
    assert text is not None
    return text.encode()


def test_it_listens_on_loopback_only(replay: ReplayUpstream) -> None:
    assert replay.url == f"http://127.0.0.1:{replay.port}"
    assert replay._server is not None
    assert replay._server.server_address[0] == "127.0.0.1"


def test_a_matching_request_gets_the_recorded_json_answer(replay: ReplayUpstream) -> None:
    weather = case(WEATHER)
    replay.serve(weather.interactions)
    reordered = json.dumps(dict(reversed(list(json.loads(_recorded_body(WEATHER, 1)).items()))))
    response = _post(replay, "/v1/chat/completions", reordered.encode())
    assert response.status == 200
    assert response.getheader("Content-Type") == "application/json"
    assert json.loads(response.read()) == weather.interactions[1].response_json()
    [received] = replay.received()
    assert received.matched == 1
    assert received.raw == reordered.encode()
    assert received.body == json.loads(reordered)
    assert received.method == "POST"
    assert received.path == "/v1/chat/completions"


def test_a_stream_is_sent_one_event_per_chunk_exactly_as_recorded(
    replay: ReplayUpstream,
) -> None:
    streaming = case(STREAM)
    replay.serve(streaming.interactions)
    with socket.create_connection(("127.0.0.1", replay.port), timeout=5) as sock:
        body = _recorded_body(STREAM)
        sock.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        raw = b""
        while not raw.endswith(b"0\r\n\r\n"):
            piece = sock.recv(65536)
            assert piece, "the server closed before the last chunk"
            raw += piece
    head, _, chunked = raw.partition(b"\r\n\r\n")
    assert b"Transfer-Encoding: chunked" in head
    assert b"text/event-stream" in head
    chunks = _dechunk(chunked)
    recorded = streaming.interactions[0].response_body_text
    assert b"".join(chunks).decode() == recorded
    assert len(chunks) == len(parse_sse(recorded)) >= 5
    assert all(len(parse_sse(chunk.decode())) == 1 for chunk in chunks)


def _dechunk(data: bytes) -> list[bytes]:
    chunks: list[bytes] = []
    while True:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return chunks
        chunks.append(data[:size])
        data = data[size + 2 :]


def test_event_blocks_keep_every_byte() -> None:
    text = "event: a\ndata: {}\n\ndata: [DONE]\r\n\r\n: comment\n\n"
    assert event_blocks(text) == ["event: a\ndata: {}\n\n", "data: [DONE]\r\n\r\n", ": comment\n\n"]
    assert "".join(event_blocks(text)) == text


def test_an_unmatched_request_gets_404_naming_the_nearest_recording(
    replay: ReplayUpstream,
) -> None:
    replay.serve(case(WEATHER).interactions)
    body: dict[str, Any] = json.loads(_recorded_body(WEATHER, 1))
    body["messages"][0]["content"] = "And in Rome?"
    response = _post(replay, "/v1/chat/completions", json.dumps(body).encode())
    assert response.status == MISMATCH_STATUS
    error = json.loads(response.read())
    assert error["type"] == "error"
    assert error["error"]["type"] == "toolwire_replay_mismatch"
    message = error["error"]["message"]
    assert "no recorded request matches POST /v1/chat/completions" in message
    assert "nearest is recorded interaction 2" in message
    assert "['messages'][0]['content']" in message
    assert '"And in Rome?"' in message
    [received] = replay.received()
    assert received.matched is None
    assert received.miss is not None and "nearest is recorded interaction 2" in received.miss


def test_a_body_that_is_not_json_is_recorded_raw_and_refused(replay: ReplayUpstream) -> None:
    replay.serve(case(WEATHER).interactions)
    response = _post(replay, "/v1/chat/completions", b"not json {")
    assert response.status == MISMATCH_STATUS
    [received] = replay.received()
    assert received.raw == b"not json {"
    assert received.body is None
    assert received.body_or_text == "not json {"


def test_without_a_cassette_every_request_is_refused(replay: ReplayUpstream) -> None:
    response = _post(replay, "/v1/chat/completions", b"{}")
    assert response.status == MISMATCH_STATUS
    assert "no cassette is loaded" in json.loads(response.read())["error"]["message"]


def test_serve_swaps_the_cassette_and_forgets_what_was_received(replay: ReplayUpstream) -> None:
    replay.serve(case(WEATHER).interactions)
    assert _post(replay, "/v1/chat/completions", _recorded_body(WEATHER)).status == 200
    assert len(replay.received()) == 1
    replay.serve(case("single-tool/weather-anthropic").interactions)
    assert replay.received() == ()
    assert _post(replay, "/v1/chat/completions", _recorded_body(WEATHER)).status == 404


def test_a_chunked_request_body_is_read(replay: ReplayUpstream) -> None:
    replay.serve(case(WEATHER).interactions)
    body = _recorded_body(WEATHER)
    connection = http.client.HTTPConnection("127.0.0.1", replay.port, timeout=5)
    connection.request(
        "POST", "/v1/chat/completions", body=iter([body[:10], body[10:]]), encode_chunked=True
    )
    assert connection.getresponse().status == 200
    assert replay.received()[0].raw == body


def test_strict_matching_rejects_what_conversation_matching_accepts() -> None:
    weather = case(WEATHER)
    body = json.loads(_recorded_body(WEATHER))
    body["model"] = "renamed"
    with ReplayUpstream(Matcher()) as strict:
        strict.serve(weather.interactions)
        assert _post(strict, "/v1/chat/completions", json.dumps(body).encode()).status == 404
        strict.serve(weather.interactions, Matcher("conversation", "openai-chat"))
        assert _post(strict, "/v1/chat/completions", json.dumps(body).encode()).status == 200


def test_a_busy_port_is_a_clear_error() -> None:
    with ReplayUpstream() as first, pytest.raises(ReplayError, match="cannot listen on"):
        ReplayUpstream(port=first.port).start()


def test_stop_frees_the_port() -> None:
    server = ReplayUpstream().start()
    port = server.port
    server.stop()
    with pytest.raises(ReplayError, match="not running"):
        _ = server.port
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
