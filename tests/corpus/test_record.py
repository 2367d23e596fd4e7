"""`toolwire record` against a fake upstream on 127.0.0.1 (never anywhere else).

The upstream demands ``Authorization: Bearer <key>`` (401 otherwise), sets a
cookie and an organisation header, and answers a realistic JSON response, an
SSE stream or a gzipped body. The written case must hold neither the key nor
the cookie nor the organisation id, validate, and replay through vcrpy.
"""

from __future__ import annotations

import gzip
import json
import socket
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import vcr
import yaml
from click.testing import CliRunner, Result

from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.record import endpoint_url
from toolwire.harness.corpus.validate import validate_corpus

# Built from pieces so no scanner sees a key-like literal in this file.
API_KEY = "sk-" + "proj-" + "R3c0rd1ngK3y" * 3 + "Zz9"
COOKIE_VALUE = "sess" + "ion-7f3a9c0b2d4e6f8a1b3c5d7e9f0a2b4c"
ORG_ID = "org-" + "Fak3Org4nisation1d"
KEY_ENV = "TOOLWIRE_TEST_KEY"

REQUEST_BODY = {
    "model": "gpt-4o-mini",
    "messages": [{"role": "user", "content": "What is the weather in Paris and Rome?"}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            },
        }
    ],
}


def _call(call_id: str, city: str) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
    }


JSON_ANSWER = {
    "id": "chatcmpl-BqX1yZ2aB3cD4eF5gH6iJ7kL8mN9",
    "object": "chat.completion",
    "created": 1751500000,
    "model": "gpt-4o-mini-2024-07-18",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("call_Xk3vQ9mB2pL7rT1wZ8yN4cD6", "Paris"),
                    _call("call_Hj5fG2kL9pQ3wE7rT1yU6iO8", "Rome"),
                ],
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 82, "completion_tokens": 46, "total_tokens": 128},
    "service_tier": "default",
    "system_fingerprint": "fp_34a54ae93c",
}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    chunk = {
        "id": "chatcmpl-BqX2zA3bC4dE5fG6hI7jK8lM9nO0",
        "object": "chat.completion.chunk",
        "created": 1751500001,
        "model": "gpt-4o-mini-2024-07-18",
        "system_fingerprint": "fp_34a54ae93c",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n"


STREAM_ANSWER = (
    _chunk({"role": "assistant", "content": None, "refusal": None})
    + _chunk(
        {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "call_Qw3eR5tY7uI9oP1aS3dF5gH7",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": ""},
                }
            ]
        }
    )
    + _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city"'}}]})
    + _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ': "Paris"}'}}]})
    + _chunk({}, "tool_calls")
    + "data: [DONE]\n\n"
)


# A Response object (POST /v1/responses), real-shaped: one function_call item.
RESPONSES_ANSWER = {
    "id": "resp_0c1d2e3f4a5b6c7d",
    "object": "response",
    "created_at": 1751500002,
    "status": "completed",
    "incomplete_details": None,
    "model": "gpt-4.1-mini-2025-04-14",
    "output": [
        {
            "id": "fc_0c1d2e3f4a5b6c7e",
            "type": "function_call",
            "status": "completed",
            "arguments": '{"city":"Paris"}',
            "call_id": "call_Rs5tU7vW9xY1zA3bC5dE7fG9",
            "name": "get_weather",
        }
    ],
    "usage": {"input_tokens": 60, "output_tokens": 17, "total_tokens": 77},
}
RESPONSES_REQUEST = {
    "model": "gpt-4.1-mini",
    "input": "What is the weather in Paris?",
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        }
    ],
}


@dataclass
class Upstream:
    """What the fake upstream saw and how it answers."""

    mode: str = "json"  # json | stream | gzip | error
    requests: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _handler(upstream: Upstream) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            upstream.requests.append(
                {"path": self.path, "headers": dict(self.headers), "body": body}
            )
            if self.headers.get("Authorization") != f"Bearer {API_KEY}":
                error = {"error": {"message": "Incorrect API key provided.", "type": "auth"}}
                self._answer(401, "application/json", json.dumps(error).encode())
                return
            if upstream.mode == "error":
                error = {"error": {"message": f"Invalid request; your key {API_KEY} is fine."}}
                self._answer(400, "application/json", json.dumps(error).encode())
            elif upstream.mode == "stream":
                self._answer(200, "text/event-stream", STREAM_ANSWER.encode())
            elif upstream.mode == "responses":
                self._answer(200, "application/json", json.dumps(RESPONSES_ANSWER).encode())
            elif upstream.mode == "gzip":
                data = gzip.compress(json.dumps(JSON_ANSWER).encode())
                self._answer(200, "application/json", data, encoding="gzip")
            else:
                self._answer(200, "application/json", json.dumps(JSON_ANSWER).encode())

        def _answer(
            self, status: int, content_type: str, data: bytes, encoding: str | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            if encoding:
                self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Set-Cookie", f"__cf_bm={COOKIE_VALUE}; path=/; HttpOnly")
            self.send_header("openai-organization", ORG_ID)
            self.send_header("x-request-id", "req_0a1b2c3d4e5f")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # keep test output quiet
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


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(KEY_ENV, API_KEY)
    (tmp_path / "request.json").write_text(json.dumps(REQUEST_BODY), encoding="utf-8")
    return tmp_path


def record(upstream: Upstream, *extra: str, body: dict[str, Any] | None = None) -> Result:
    if body is not None:
        Path("request.json").write_text(json.dumps(body), encoding="utf-8")
    args = [
        "record",
        "--base-url",
        upstream.base_url,
        "--dialect",
        "openai-chat",
        "--request",
        "request.json",
        "--api-key-env",
        KEY_ENV,
        "--corpus",
        "corpus",
        *extra,
    ]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def _post(uri: str, body: str) -> bytes:
    request = urllib.request.Request(
        uri, data=body.encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        data: bytes = response.read()
        return data


def _assert_clean(text: str, output: str) -> None:
    for secret in (API_KEY, COOKIE_VALUE, ORG_ID):
        assert secret not in text
        assert secret not in output
    assert "Bearer" not in text
    lowered = text.lower()
    for header in ("authorization:", "set-cookie:", "openai-organization:"):
        assert header not in lowered


def _refuse_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("replay tried to open a real connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _replay(path: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    case = load_case(path, Path("corpus"))
    recorded = case.interactions[0]
    with monkeypatch.context() as patch:
        _refuse_network(patch)
        with vcr.use_cassette(str(path), record_mode="none") as cassette:
            body = _post(recorded.uri, recorded.request_body_text or "")
            assert cassette.play_count == 1
    return body


def test_records_a_json_answer_without_key_or_cookie_and_vcrpy_replays_it(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = record(upstream)
    assert result.exit_code == 0, result.output
    # The upstream really got the key (it answers 401 without it).
    assert upstream.requests[0]["headers"]["Authorization"] == f"Bearer {API_KEY}"
    assert upstream.requests[0]["path"] == "/v1/chat/completions"
    path = workdir / "corpus" / "parallel" / "gpt-4o-mini-get-weather.yaml"
    assert "added parallel/gpt-4o-mini-get-weather (openai-chat, profile openai" in result.output
    text = path.read_text(encoding="utf-8")
    _assert_clean(text, result.output)
    assert "x-request-id" in text  # harmless headers are kept
    assert "removed headers: authorization, openai-organization, set-cookie" in result.output

    document = yaml.safe_load(text)
    block = document["toolwire"]
    assert block["dialect"] == "openai-chat"
    assert block["features"] == ["parallel"]
    provenance = block["provenance"]
    assert provenance["kind"] == "recorded"
    assert provenance["endpoint"] == f"http://127.0.0.1:{upstream.port}/v1/chat/completions"
    assert provenance["model"] == "gpt-4o-mini"
    assert provenance["recorder"] == "toolwire 0.1.0"
    assert validate_corpus(workdir / "corpus").ok

    upstream_requests = len(upstream.requests)
    replayed = json.loads(_replay(path, monkeypatch))
    assert replayed == JSON_ANSWER
    assert len(upstream.requests) == upstream_requests  # served by vcrpy, not the server


def test_records_a_stream_byte_for_byte(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream.mode = "stream"
    result = record(upstream, "--id", "streaming/paris", body={**REQUEST_BODY, "stream": True})
    assert result.exit_code == 0, result.output
    assert upstream.requests[0]["headers"]["Accept"] == "text/event-stream"
    path = workdir / "corpus" / "streaming" / "paris.yaml"
    text = path.read_text(encoding="utf-8")
    _assert_clean(text, result.output)
    case = load_case(path, workdir / "corpus")
    assert case.features == ("single-tool", "streaming")
    assert case.interactions[0].response_body_text == STREAM_ANSWER
    assert validate_corpus(workdir / "corpus").ok
    assert _replay(path, monkeypatch).decode("utf-8") == STREAM_ANSWER


def test_a_gzipped_answer_is_stored_decoded_and_replays(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream.mode = "gzip"
    result = record(upstream, "--id", "parallel/gzipped")
    assert result.exit_code == 0, result.output
    path = workdir / "corpus" / "parallel" / "gzipped.yaml"
    text = path.read_text(encoding="utf-8")
    _assert_clean(text, result.output)
    assert "!!binary" not in text
    assert "content-encoding" not in text.lower()
    assert '"finish_reason": "tool_calls"' in text  # readable, indented JSON
    case = load_case(path, workdir / "corpus")
    stored = case.interactions[0]
    assert stored.response_header("Content-Length") == str(
        len(stored.response_body_text.encode("utf-8"))
    )
    assert json.loads(_replay(path, monkeypatch)) == JSON_ANSWER


def test_a_missing_key_is_refused_and_nothing_is_written(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-" + "wrong" + "K3yK3yK3yK3yK3yK3y")
    result = record(upstream)
    assert result.exit_code == 2
    assert "the upstream refused the credentials (HTTP 401); nothing was written" in result.output
    assert "K3yK3y" not in result.output
    assert not (workdir / "corpus").exists() or not list((workdir / "corpus").rglob("*.yaml"))


def test_an_unset_key_variable_is_a_usage_error(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    result = record(upstream)
    assert result.exit_code == 2
    assert f"environment variable {KEY_ENV} is not set or empty" in result.output
    assert upstream.requests == []


def test_an_error_answer_never_prints_the_key_and_is_kept_only_when_asked(
    upstream: Upstream, workdir: Path
) -> None:
    upstream.mode = "error"
    refused = record(upstream)
    assert refused.exit_code == 2
    assert "the upstream answered HTTP 400: Invalid request; your key REDACTED is fine." in (
        refused.output
    )
    assert API_KEY not in refused.output
    assert not list(workdir.rglob("*.yaml"))

    kept = record(upstream, "--allow-error-status", "--feature", "single-tool")
    assert kept.exit_code == 0, kept.output
    (path,) = list((workdir / "corpus").rglob("*.yaml"))
    text = path.read_text(encoding="utf-8")
    _assert_clean(text, kept.output)
    assert "code: 400" in text


def test_credentials_on_the_command_line_are_refused(upstream: Upstream, workdir: Path) -> None:
    result = record(upstream, "--header", f"Authorization: Bearer {API_KEY}")
    assert result.exit_code == 2
    assert "credentials are not taken on the command line" in result.output
    assert API_KEY not in result.output
    assert upstream.requests == []


def test_an_existing_id_is_refused_then_replaced_with_force(
    upstream: Upstream, workdir: Path
) -> None:
    first = record(upstream, "--id", "parallel/twice")
    assert first.exit_code == 0, first.output
    again = record(upstream, "--id", "parallel/twice")
    assert again.exit_code == 2
    assert "corpus/parallel/twice.yaml: case 'parallel/twice' already exists" in again.output
    assert "--force" in again.output
    forced = record(upstream, "--id", "parallel/twice", "--force")
    assert forced.exit_code == 0, forced.output
    assert forced.output.splitlines()[-1].startswith("replaced parallel/twice")


@pytest.mark.parametrize(
    ("base", "dialect", "expected"),
    [
        ("https://api.openai.com/v1", "openai-chat", "https://api.openai.com/v1/chat/completions"),
        ("https://api.deepseek.com", "deepseek-chat", "https://api.deepseek.com/chat/completions"),
        ("http://127.0.0.1:8000/v1/", "qwen-xml", "http://127.0.0.1:8000/v1/chat/completions"),
        (
            "https://api.anthropic.com",
            "anthropic-messages",
            "https://api.anthropic.com/v1/messages",
        ),
        ("http://127.0.0.1:9/v1", "anthropic-messages", "http://127.0.0.1:9/v1/messages"),
        ("https://api.openai.com/v1", "openai-responses", "https://api.openai.com/v1/responses"),
        (
            "http://127.0.0.1:9/v1/responses",
            "openai-responses",
            "http://127.0.0.1:9/v1/responses",
        ),
        (
            "http://127.0.0.1:9/v1/chat/completions",
            "openai-chat",
            "http://127.0.0.1:9/v1/chat/completions",
        ),
    ],
)
def test_endpoint_url(base: str, dialect: str, expected: str) -> None:
    assert endpoint_url(base, dialect) == expected


def test_unreachable_upstream_is_one_line(workdir: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = ["record", "--base-url", f"http://127.0.0.1:{port}/v1", "--dialect", "openai-chat"]
    args += ["--request", "request.json", "--api-key-env", KEY_ENV, "--corpus", "corpus"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 2
    assert "cannot reach the upstream" in result.output
    assert "Traceback" not in result.output


def test_the_temporary_cassette_vcrpy_writes_is_already_clean(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Scrubbing happens in vcrpy's hooks, before vcrpy writes anything: the
    # temporary cassette itself never holds the key, cookie or organisation.
    from toolwire.harness.corpus import record as record_module

    seen: list[str] = []
    original = record_module.read_foreign_cassette

    def spy(path: Path) -> Any:
        seen.append(path.read_text(encoding="utf-8"))
        return original(path)

    monkeypatch.setattr(record_module, "read_foreign_cassette", spy)
    upstream.mode = "gzip"
    result = record(upstream)
    assert result.exit_code == 0, result.output
    (temporary,) = seen
    assert "interactions:" in temporary
    _assert_clean(temporary, "")


def test_a_key_pasted_into_the_request_body_is_scrubbed(upstream: Upstream, workdir: Path) -> None:
    pasted = "sk-" + "proj-" + "P4st3dInt0Th3Pr0mpt" * 2
    body = {**REQUEST_BODY, "messages": [{"role": "user", "content": f"My key is {pasted}."}]}
    result = record(upstream, "--id", "parallel/pasted", body=body)
    assert result.exit_code == 0, result.output
    assert upstream.requests[0]["body"]["messages"][0]["content"] == f"My key is {pasted}."
    text = (workdir / "corpus" / "parallel" / "pasted.yaml").read_text(encoding="utf-8")
    assert pasted not in text
    assert "My key is REDACTED." in text
    assert "replaced with REDACTED: OpenAI API key" in result.output
    assert pasted not in result.output


def test_records_a_responses_api_exchange(
    upstream: Upstream, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream.mode = "responses"
    Path("request.json").write_text(json.dumps(RESPONSES_REQUEST), encoding="utf-8")
    args = ["record", "--base-url", upstream.base_url, "--dialect", "openai-responses"]
    args += ["--request", "request.json", "--api-key-env", KEY_ENV, "--corpus", "corpus"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert upstream.requests[0]["path"] == "/v1/responses"
    assert "(openai-responses, profile openai-responses" in result.output
    path = workdir / "corpus" / "single-tool" / "gpt-4-1-mini-get-weather.yaml"
    text = path.read_text(encoding="utf-8")
    _assert_clean(text, result.output)
    block = yaml.safe_load(text)["toolwire"]
    assert block["dialect"] == "openai-responses" and block["features"] == ["single-tool"]
    assert validate_corpus(workdir / "corpus").ok
    assert json.loads(_replay(path, monkeypatch)) == RESPONSES_ANSWER
