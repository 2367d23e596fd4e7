"""A late request from an earlier exchange is never judged as this case's.

Found against the real LiteLLM proxy (docs/proxies.md, "Real proxies"): after
toolwire gave up on a slow request, the proxy sent that request upstream
anyway, into the next case's cassette. The engine judged the first forwarded
request, so the next case was blamed for another conversation's text and
tools. Now the request that matched the case's recordings is judged; one
that matched nothing still makes the case an ``error``.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.proxy.support import PYTHON, TOY_PROXY_CMD, case, started_upstream, verdicts
from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.adapters.http_adapter import KEEP_LOG_VARIABLE, HttpProxyAdapter
from toolwire.harness.engine.verdicts import CONVERT
from toolwire.harness.proxy.process import ProxyProcess, free_port
from toolwire.harness.proxy.replay_http import Server as QuietServer

CASE = "error-result/retry-after-error-openai"
# Another conversation: what a proxy still retrying an earlier case would send.
STALE = json.loads(case("single-tool/weather-openai").interactions[0].request_body_text or "")


class _LateRetryProxy:
    """A pass-through openai-chat proxy that first sends a stale request upstream.

    With ``forward=False`` it sends only the stale request and answers with the
    upstream's reply to it: the case's own request never arrives.
    """

    def __init__(self, upstream_port: int, forward: bool = True) -> None:
        self.upstream = f"http://127.0.0.1:{upstream_port}/v1/chat/completions"
        self.forward = forward
        self.server = QuietServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def _post(self, body: Any) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        request = urllib.request.Request(
            self.upstream, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status, data = proxy._post(STALE)  # the late retry lands first
                if proxy.forward:
                    status, data = proxy._post(body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


@contextmanager
def _late_retry_adapter(forward: bool = True) -> Iterator[LoadedAdapter]:
    adapter, upstream_url = started_upstream(
        "http://127.0.0.1:0?front=openai-chat&back=openai-chat&upstream_port=1"
    )
    implementation = adapter.implementation
    assert isinstance(implementation, HttpProxyAdapter)
    proxy = _LateRetryProxy(int(upstream_url.rsplit(":", 1)[1]), forward)
    proxy.thread.start()
    implementation.port = proxy.port
    try:
        yield adapter
    finally:
        proxy.server.shutdown()
        proxy.server.server_close()
        implementation.close()


def test_the_request_that_matched_is_judged_not_a_late_one() -> None:
    with _late_retry_adapter() as adapter:
        found = verdicts(adapter, CASE)
    problems = [f"{v.item_id}: {v.message}" for v in found if v.outcome != "pass"]
    assert problems == []
    assert {v.rule_code for v in found} >= {"fidelity.text", "fidelity.tool_definitions"}


def test_a_late_request_alone_is_still_a_mismatch_error() -> None:
    with _late_retry_adapter(forward=False) as adapter:
        found = verdicts(adapter, CASE)
    errors = [v for v in found if v.rule_code == CONVERT and v.outcome == "error"]
    assert errors, [f"{v.item_id}: {v.outcome}" for v in found]
    assert "did not recognise it" in errors[0].message
    # the stale conversation is what was forwarded, and it is judged as such
    assert any(v.rule_code == "fidelity.text" and v.outcome == "fail" for v in found)


def test_a_kept_log_stays_after_the_proxy_stops(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "proxy.log"
    port = free_port()
    words = [PYTHON, "-c", f"print('hello from the proxy', flush=True); {_serve(port)}"]
    process = ProxyProcess(words, port, ready_timeout=20, keep_log=log)
    process.start()
    process.cleanup()
    assert log.read_text(encoding="utf-8").startswith("hello from the proxy")


def test_the_log_variable_reaches_the_process(tmp_path: Path, monkeypatch: Any) -> None:
    log = tmp_path / "toy.log"
    monkeypatch.setenv(KEEP_LOG_VARIABLE, str(log))
    adapter = HttpProxyAdapter("http://127.0.0.1?front=openai-chat&back=openai-chat")
    adapter.start(TOY_PROXY_CMD)
    adapter.close()
    assert log.exists()
    without = tmp_path / "absent.log"
    monkeypatch.delenv(KEEP_LOG_VARIABLE)
    other = HttpProxyAdapter("http://127.0.0.1?front=openai-chat&back=openai-chat")
    other.start(TOY_PROXY_CMD)
    other.close()
    assert not without.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["toy.log"]


def _serve(port: int) -> str:
    return (
        "import http.server as h; "
        f"h.ThreadingHTTPServer(('127.0.0.1', {port}), h.BaseHTTPRequestHandler).serve_forever()"
    )
