"""`toolwire record --dialect gemini` against a fake Gemini upstream on 127.0.0.1.

The upstream demands ``x-goog-api-key`` and answers at
``/v1beta/models/{model}:generateContent`` (JSON) or
``:streamGenerateContent?alt=sse`` (chunks). The request file names the
model and ``stream`` as for the other dialects; the recorded request is the
Gemini body without them, the key is nowhere in the case, and the case lints
clean as gemini.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.dialects import gemini_fixtures as fx
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.record import endpoint_url

API_KEY = "AIza" + "Sy" + "Gem1n1R3c0rdK3y" * 2 + "x0"
KEY_ENV = "TOOLWIRE_TEST_GEMINI_KEY"


@dataclass
class Upstream:
    requests: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0


def _handler(upstream: Upstream) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            upstream.requests.append({"path": self.path, "body": body})
            if self.headers.get("x-goog-api-key") != API_KEY:
                self._answer(403, "application/json", b'{"error": {"code": 403}}')
            elif ":streamGenerateContent" in self.path:
                chunks = "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in fx.CALL_STREAM)
                self._answer(200, "text/event-stream", chunks.encode())
            else:
                self._answer(200, "application/json", json.dumps(fx.PARALLEL_RESPONSE).encode())

        def _answer(self, status: int, content_type: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    state = Upstream()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _record(tmp_path: Path, upstream: Upstream, body: dict[str, Any]) -> Any:
    (tmp_path / "request.json").write_text(json.dumps(body), encoding="utf-8")
    args = ["record", "--base-url", f"http://127.0.0.1:{upstream.port}", "--dialect", "gemini"]
    args += ["--request", "request.json", "--api-key-env", KEY_ENV, "--corpus", "corpus"]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


@pytest.mark.parametrize("stream", [False, True])
def test_record_a_gemini_exchange(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, upstream: Upstream, stream: bool
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(KEY_ENV, API_KEY)
    request = fx.FIRST_REQUEST if stream else fx.PARALLEL_REPLAY
    body = {"model": "gemini-2.5-flash", **request, **({"stream": True} if stream else {})}
    result = _record(tmp_path, upstream, body)
    assert result.exit_code == 0, result.output
    (sent,) = upstream.requests
    method = "streamGenerateContent?alt=sse" if stream else "generateContent"
    assert sent["path"] == f"/v1beta/models/gemini-2.5-flash:{method}"
    assert sent["body"] == request  # model and stream went into the URL
    (written,) = list(Path("corpus").rglob("*.yaml"))
    text = written.read_text()
    assert API_KEY not in text and API_KEY not in result.output
    case = load_case(written, Path("corpus"))
    assert case.dialect == "gemini" and case.profile == "gemini"
    assert json.loads(case.interactions[0].request_body_text or "") == request
    lint = CliRunner().invoke(cli, ["lint", str(written)])
    assert lint.exit_code == 0, lint.output


@pytest.mark.parametrize(
    ("base", "stream", "expected"),
    [
        (
            "https://generativelanguage.googleapis.com",
            False,
            "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent",
        ),
        (
            "https://generativelanguage.googleapis.com/v1beta/",
            True,
            "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent"
            "?alt=sse",
        ),
        (
            "http://127.0.0.1:9/v1beta/models/x:generateContent",
            False,
            "http://127.0.0.1:9/v1beta/models/x:generateContent",
        ),
    ],
)
def test_gemini_endpoint(base: str, stream: bool, expected: str) -> None:
    assert endpoint_url(base, "gemini", "m", stream) == expected
