"""Secrets never leave (docs/hostile-input.md, rows S1-S15).

Each test hands toolwire a fake key (built at run time in a real key's
shape, ``tests.hostile.fake_keys``) in one of the ways it used to get
through, and checks every place it could land: the case file written, the
results JSON, the reports, the profile, stdout and stderr.
"""

from __future__ import annotations

import datetime
import json
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.hostile.cassettes import case_text, simple_request, write_case
from tests.hostile.cli import toolwire
from tests.hostile.fake_keys import anthropic_key, azure_key, openai_project_key, password
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.scrub import Scrubber
from toolwire.harness.corpus.secrets import scan_cassette
from toolwire.harness.corpus.validate import validate_corpus

SECRET_ADAPTERS = "tests.hostile.secret_adapters"
LEAKY_CMD = Path(__file__).with_name("leaky_cmd_adapter.py")
ONE = "single-tool/weather-openai"


def _pieces(secret: str, size: int = 12) -> list[str]:
    """Every piece of ``secret`` long enough to be worth stealing."""
    return [secret[at : at + size] for at in range(0, len(secret) - size + 1)]


def assert_nowhere(secret: str, *texts: str) -> None:
    """Neither the key nor any 12-character piece of its random part is in ``texts``."""
    pieces = _pieces(secret[13:])  # past the public prefix (sk-ant-api03-, sk-proj-)
    for text in texts:
        assert secret not in text
        leaked = [piece for piece in pieces if piece in text]
        assert not leaked, leaked[:3]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    chunk = {
        "id": "chatcmpl-streamed",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n"


def streamed_text_body(text: str, size: int = 4) -> str:
    """An OpenAI stream that sends ``text`` ``size`` characters per event."""
    pieces = [text[at : at + size] for at in range(0, len(text), size)]
    return (
        _chunk({"role": "assistant", "content": ""})
        + "".join(_chunk({"content": piece}) for piece in pieces)
        + _chunk({}, "stop")
        + "data: [DONE]\n\n"
    )


def escaped_across_two_data_lines(secret: str) -> str:
    """One event whose JSON is split over two ``data:`` lines, the key escaped."""
    escaped = secret.replace("-", "\\u002d")
    head = json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"})
    return (
        f'data: {head[:-1]}, "choices": [{{"index": 0, "delta": {{"content":\n'
        f'data: "my key is {escaped}"}}, "finish_reason": null}}]}}\n\n'
        + _chunk({}, "stop")
        + "data: [DONE]\n\n"
    )


def _stream_body_yaml(body: str) -> str:
    block = "\n".join(f"        {line}" if line else "" for line in body.splitlines())
    return f"      string: |\n{block}\n"


def stream_case(root: Path, case_id: str, body: str) -> Path:
    request = {**simple_request(), "stream": True}
    text = case_text(
        case_id,
        request,
        response_body=_stream_body_yaml(body),
        response_headers="Content-Type:\n      - text/event-stream",
    )
    return write_case(root, case_id, text)


def _vcr_cassette(
    folder: Path,
    *,
    uri: str,
    request: Any,
    headers: dict[str, list[str]],
    body: str,
    content_type: str,
    response_headers: dict[str, list[str]] | None = None,
) -> Path:
    interaction = {
        "request": {"body": json.dumps(request), "headers": headers, "method": "POST", "uri": uri},
        "response": {
            "body": {"string": body},
            "headers": {"Content-Type": [content_type], **(response_headers or {})},
            "status": {"code": 200, "message": "OK"},
        },
    }
    path = folder / "recorded.yaml"
    path.write_text(yaml.safe_dump({"interactions": [interaction], "version": 1}), "utf-8")
    return path


def _add(cassette: Path, *extra: str) -> Any:
    return CliRunner().invoke(
        cli, ["corpus", "add", str(cassette), "--corpus", "corpus", *extra], catch_exceptions=False
    )


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _joined_content(stream: str) -> str:
    text = ""
    for line in stream.splitlines():
        if line.startswith("data: {"):
            for choice in json.loads(line[6:])["choices"]:
                text += choice["delta"].get("content") or ""
    return text


# --- S1-S3: streams scrubbed and validated whole -----------------------------------


def test_s1_a_key_streamed_four_characters_per_event_is_scrubbed_by_corpus_add(
    workdir: Path,
) -> None:
    key = anthropic_key("s1")
    body = streamed_text_body(f"Sure, your key is {key}, keep it safe.")
    request = {**simple_request(), "stream": True}
    headers = {"Content-Type": ["application/json"]}
    cassette = _vcr_cassette(
        workdir,
        uri="https://api.openai.com/v1/chat/completions",
        request=request,
        headers=headers,
        body=body,
        content_type="text/event-stream",
    )
    result = _add(cassette, "--id", "streaming/leaked-key")
    assert result.exit_code == 0, result.output
    written = (workdir / "corpus" / "streaming" / "leaked-key.yaml").read_text("utf-8")
    assert_nowhere(key, written, result.output)
    stream = yaml.safe_load(written)["interactions"][0]["response"]["body"]["string"]
    # The stream still reads as before, the key replaced where it was.
    assert _joined_content(stream) == "Sure, your key is REDACTED, keep it safe."
    assert validate_corpus(workdir / "corpus").ok


def test_s2_corpus_validate_finds_a_key_streamed_across_events(workdir: Path) -> None:
    key = openai_project_key("s2")
    stream_case(workdir / "corpus", "streaming/split-key", streamed_text_body(f"key: {key}"))
    result = CliRunner().invoke(cli, ["corpus", "validate", "--corpus", "corpus"])
    assert result.exit_code == 1, result.output
    assert "OpenAI API key" in result.output
    assert "joined across events" in result.output
    assert_nowhere(key, result.output)


def test_s3_a_json_escaped_key_across_two_data_lines_is_found_and_scrubbed(
    workdir: Path,
) -> None:
    key = anthropic_key("s3")
    body = escaped_across_two_data_lines(key)
    stream_case(workdir / "corpus", "streaming/escaped-key", body)
    report = validate_corpus(workdir / "corpus")
    assert any("Anthropic API key" in problem.message for problem in report.problems)

    scrubbed = Scrubber().body(body, "text/event-stream")
    assert key.replace("-", "\\u002d") not in scrubbed
    assert_nowhere(key, scrubbed, scrubbed.replace("\\u002d", "-"))
    assert _joined_content(scrubbed) == "my key is REDACTED"


def test_s3_a_key_escaped_inside_streamed_tool_call_arguments_is_scrubbed() -> None:
    key = anthropic_key("s3-args")
    arguments = json.dumps({"token": key}).replace("-", "\\u002d")
    pieces = [arguments[at : at + 5] for at in range(0, len(arguments), 5)]
    body = "".join(
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}) for piece in pieces
    )
    scrubbed = Scrubber().body(body, "text/event-stream")
    joined = "".join(
        json.loads(line[6:])["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
        for line in scrubbed.splitlines()
        if line.startswith("data: {")
    )
    assert json.loads(joined) == {"token": "REDACTED"}
    assert scan_cassette("x", scrubbed, None) == []


# --- S4-S8: everything an adapter says is redacted ----------------------------------


def _run_and_report(tmp_path: Path, adapter: str) -> tuple[Any, str]:
    reports = tmp_path / "reports"
    result = toolwire(
        "run", "--adapter", adapter, "--select", ONE, "--report-dir", str(reports), "-v"
    )
    results = (reports / "results.json").read_text("utf-8")
    outputs = [result.stdout, result.stderr, results]
    for form in ("md", "html", "junit"):
        shown = toolwire("report", str(reports / "results.json"), "--format", form)
        outputs.append(shown.stdout)
    return result, "\n".join(outputs)


def test_s4_an_exception_quoting_the_key_is_masked_in_results_reports_and_terminal(
    tmp_path: Path,
) -> None:
    result, everything = _run_and_report(tmp_path, f"{SECRET_ADAPTERS}:RaisesWithKey")
    assert result.returncode == 3
    assert_nowhere(anthropic_key(), everything)
    assert "api_key=sk-a…(108 chars)" in everything  # masked: the kind and length stay


def test_s5_a_key_of_no_known_shape_from_the_environment_is_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.hostile.secret_adapters import AZURE_ENV

    key = azure_key("s5")
    monkeypatch.setenv(AZURE_ENV, key)
    result, everything = _run_and_report(tmp_path, f"{SECRET_ADAPTERS}:RaisesWithEnvironmentKey")
    assert result.returncode == 3
    assert key not in everything
    assert "Azure answered 401 for" in everything


@pytest.mark.parametrize("mode", ["stderr", "error", "unsupported"])
def test_s6_what_a_cmd_adapter_says_is_masked(tmp_path: Path, mode: str) -> None:
    adapter = f"cmd:{sys.executable} {LEAKY_CMD} {mode}"
    result, everything = _run_and_report(tmp_path, adapter)
    assert result.returncode == (0 if mode == "unsupported" else 3), result.stdout
    assert_nowhere(anthropic_key(), everything)
    assert "x-api-key: sk-a…(108 chars)" in everything


def test_s7_an_import_error_quoting_the_key_is_masked() -> None:
    result = toolwire("run", "--adapter", "tests.hostile.secret_import:Adapter", "--select", ONE)
    assert result.returncode == 2
    assert_nowhere(openai_project_key(), result.stdout, result.stderr)
    assert "cannot configure the client with sk-p…(164 chars)" in result.stderr


def test_s8_a_finding_quoting_a_streamed_key_is_masked() -> None:
    from toolwire.conformance.findings import Finding
    from toolwire.harness.engine.collect import VerdictCollector

    key = anthropic_key("s8")
    collector = VerdictCollector("streaming/x", "adapter")
    finding = Finding("fidelity.text", f"the text 'my key {key}' is lost", "$.choices[0]")
    collector._record("fidelity.text", "MUST", "openai", "stream", [finding])
    collector.error("stream", f"the adapter raised ValueError: {key}")
    verdicts = collector.verdicts()
    shown = json.dumps(
        [[v.message, [f.message for f in v.findings]] for v in verdicts], ensure_ascii=False
    )
    assert_nowhere(key, shown)
    assert "sk-a…(108 chars)" in shown


# --- S9-S10: probe never writes the key -------------------------------------------


def test_s9_probe_evidence_quoting_an_echoed_key_is_scrubbed(tmp_path: Path) -> None:
    from tests.probe.fakes import Answer, ScriptedModel, good
    from toolwire.harness.probe.recording import save_run
    from toolwire.harness.probe.runner import ProbeOptions, run_probe

    key = openai_project_key("s9")

    def echoes_the_key(scenario: str, stage: int, body: Any) -> Answer:
        if scenario == "basic":
            # The model repeats the key (and a piece of it) instead of the message.
            return Answer(calls=(("probe_echo", {"message": key, "tag": key[20:44]}),))
        return good(scenario, stage, body)

    progress: list[str] = []
    options = ProbeOptions("http://127.0.0.1:9/v1", "m", "openai-chat", api_key=key)
    run = run_probe(
        options,
        send=ScriptedModel(echoes_the_key),
        progress=lambda item: progress.append(json.dumps(item.evidence.as_json())),
    )
    profile = json.dumps(run.profile.as_json())
    assert "probe_echo message" in profile  # the failure is still described
    assert_nowhere(key, profile, *progress)
    saved = save_run(run, tmp_path / "corpus", datetime.date(2026, 1, 1))
    written = [path.read_text("utf-8") for path in (tmp_path / "corpus").rglob("*.yaml")]
    assert saved.cases and written
    assert_nowhere(key, *written, *saved.skipped)


def test_s10_probe_error_messages_never_quote_the_key() -> None:
    from toolwire.harness.probe.session import ProbeSession
    from toolwire.harness.probe.transport import Endpoint, Exchange

    key = anthropic_key("s10")
    endpoint = Endpoint("http://127.0.0.1:9", "anthropic-messages", key)
    echoed = json.dumps({"error": {"message": f"bad key {key[:40]}… (x-api-key: {key})"}})
    exchange = Exchange(endpoint.url, {}, {}, 400, "Bad Request", (), echoed)
    text = ProbeSession(endpoint, "m").error_text(exchange)
    assert "bad key" in text
    assert_nowhere(key, text)


# --- S12-S13: wider scrubbing ---------------------------------------------------------


GATEWAY_HEADERS = [
    "Ocp-Apim-Subscription-Key",  # Azure API Management
    "x-litellm-api-key",  # LiteLLM proxy
    "x-portkey-api-key",  # Portkey gateway
    "X-Custom-Auth-Token",
    "X-Client-Secret",
]


def test_s12_gateway_credentials_and_url_userinfo_are_scrubbed_by_corpus_add(
    workdir: Path,
) -> None:
    key, secret = azure_key("s12"), password("s12")
    request = {**simple_request(), "max_tokens": 64}
    uri = (
        f"https://proxy-user:{secret}@gateway.example.com/openai/chat/completions"
        f"?api-version=2024-06-01&code={secret}&subscription-key={key}"
    )
    headers = {name: [key] for name in GATEWAY_HEADERS}
    headers["Content-Type"] = ["application/json"]
    answer = json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {
                                    "name": "get_weather",
                                    "arguments": '{"city": "Paris"}',
                                },
                            }
                        ],
                    },
                    "finish_reason": "tool_calls",
                }
            ],
        }
    )
    cassette = _vcr_cassette(
        workdir,
        uri=uri,
        request=request,
        headers=headers,
        body=answer,
        content_type="application/json",
        response_headers={"x-ratelimit-remaining-tokens": ["149984"], "apim-request-id": ["r1"]},
    )
    result = _add(cassette, "--id", "single-tool/gateway")
    assert result.exit_code == 0, result.output
    written = (workdir / "corpus" / "single-tool" / "gateway.yaml").read_text("utf-8")
    for value in (key, secret, "proxy-user"):
        assert value not in written and value not in result.output
    lowered = written.lower()
    for name in GATEWAY_HEADERS:
        assert name.lower() not in lowered
    data = yaml.safe_load(written)["interactions"][0]
    assert data["request"]["uri"] == (
        "https://gateway.example.com/openai/chat/completions?api-version=2024-06-01"
    )
    # Harmless names stay: a body's max_tokens, a rate-limit header counting tokens.
    assert json.loads(data["request"]["body"])["max_tokens"] == 64
    assert data["response"]["headers"]["x-ratelimit-remaining-tokens"] == ["149984"]


@pytest.mark.parametrize("name", GATEWAY_HEADERS)
def test_s13_corpus_validate_refuses_a_gateway_credential_header(workdir: Path, name: str) -> None:
    text = case_text("single-tool/gateway", simple_request())
    text = text.replace(
        "    headers:\n      Content-Type:",
        f"    headers:\n      {name}:\n      - {azure_key('s13')}\n      Content-Type:",
        1,
    )
    write_case(workdir / "corpus", "single-tool/gateway", text)
    problems = [str(problem) for problem in validate_corpus(workdir / "corpus").problems]
    assert any(f"{name!r} is a credential header" in problem for problem in problems), problems
    assert not any(azure_key("s13") in problem for problem in problems)


# --- S11: no credential follows a redirect to another origin ------------------------


@dataclass
class Origin:
    """One 127.0.0.1 server: what it received, and where it sends POSTs
    (``redirect_to``: a 302 there; None: a small JSON error answer)."""

    url: str = ""
    redirect_to: str | None = None
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)


def _handler(origin: Origin) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            origin.requests.append((self.command, self.path, dict(self.headers)))
            if origin.redirect_to is not None and self.command == "POST":
                self.send_response(302)
                self.send_header("Location", origin.redirect_to)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = json.dumps({"error": {"message": "nothing to do here"}}).encode()
            self.send_response(400)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _serve

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

    return Handler


@pytest.fixture
def two_origins() -> Iterator[tuple[Origin, Origin]]:
    """Two servers on 127.0.0.1, on different ports: two origins."""
    origins = (Origin(), Origin())
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), _handler(origin)) for origin in origins]
    threads = [threading.Thread(target=s.serve_forever, args=(0.05,), daemon=True) for s in servers]
    for origin, server, thread in zip(origins, servers, threads, strict=True):
        origin.url = f"http://127.0.0.1:{server.server_address[1]}"
        thread.start()
    try:
        yield origins
    finally:
        for server, thread in zip(servers, threads, strict=True):
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)


CREDENTIAL_HEADERS = ("authorization", "x-api-key", "api-key", "ocp-apim-subscription-key")


def _credentials(headers: dict[str, str]) -> list[str]:
    return [name for name in headers if name.lower() in CREDENTIAL_HEADERS]


@pytest.mark.parametrize("dialect", ["openai-chat", "anthropic-messages"])
def test_s11_probe_drops_the_key_on_a_redirect_to_another_origin(
    two_origins: Any, dialect: str
) -> None:
    from toolwire.harness.probe.transport import Endpoint, post

    first, second = two_origins
    first.redirect_to = f"{second.url}/elsewhere"
    key = anthropic_key("s11")
    exchange = post(Endpoint(f"{first.url}/v1", dialect, key, timeout=10), {"model": "m"})
    assert exchange.status == 400  # the second server's answer
    assert _credentials(first.requests[0][2])  # the first origin got the key
    assert second.requests and not _credentials(second.requests[0][2])
    assert key not in json.dumps(second.requests)


def test_s11_a_redirect_within_the_origin_keeps_the_key(two_origins: Any) -> None:
    from toolwire.harness.probe.transport import Endpoint, post

    first, _second = two_origins
    first.redirect_to = f"{first.url}/v1/moved"
    post(Endpoint(f"{first.url}/v1", "openai-chat", anthropic_key("s11"), timeout=10), {})
    methods = [(method, path) for method, path, _headers in first.requests]
    assert methods == [("POST", "/v1/chat/completions"), ("GET", "/v1/moved")]
    assert _credentials(first.requests[1][2]) == ["Authorization"]


def test_s11_every_credential_header_is_dropped_across_origins(two_origins: Any) -> None:
    from toolwire.harness.redirects import open_url

    first, second = two_origins
    first.redirect_to = f"{second.url}/elsewhere"
    headers = {name: azure_key("s11") for name in (*GATEWAY_HEADERS, "Authorization", "api-key")}
    headers["Cookie"] = "session=" + azure_key("cookie")
    headers["X-Request-Note"] = "kept"
    request = urllib.request.Request(first.url, data=b"{}", headers=headers, method="POST")
    with pytest.raises(urllib.error.HTTPError):
        open_url(request, timeout=10)
    received = second.requests[0][2]
    assert received.get("X-Request-Note") == "kept"
    assert azure_key("s11") not in json.dumps(received)
    assert "Cookie" not in received


def test_s11_record_drops_the_key_on_a_redirect_to_another_origin(
    two_origins: Any, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = two_origins
    first.redirect_to = f"{second.url}/elsewhere"
    key = openai_project_key("s11-record")
    monkeypatch.setenv("TOOLWIRE_S11_KEY", key)
    Path("request.json").write_text(json.dumps(simple_request()), encoding="utf-8")
    args = ["record", "--base-url", f"{first.url}/v1", "--dialect", "openai-chat"]
    args += ["--request", "request.json", "--api-key-env", "TOOLWIRE_S11_KEY", "--corpus", "c"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert _credentials(first.requests[0][2]) == ["Authorization"]
    assert second.requests and not _credentials(second.requests[0][2])
    # The second origin answered 400 to the redirected request: refused, nothing written
    # (the exit code of that refusal is issue 16 item 11's, not this test's).
    assert result.exit_code != 0, result.output
    assert not Path("c").exists()
    assert "HTTP 400" in result.output
    assert_nowhere(key, result.output)


def test_s8_a_stream_verdict_quoting_a_streamed_key_is_masked_end_to_end(tmp_path: Path) -> None:
    # A case that holds the key (written by hand, never validated), judged
    # with an adapter that loses the streamed text: the verdict quotes it.
    key = anthropic_key("s8-run")
    stream_case(tmp_path / "corpus", "streaming/leaky", streamed_text_body(f"it is {key} ok"))
    reports = tmp_path / "reports"
    result = toolwire(
        "run",
        "--adapter",
        f"{SECRET_ADAPTERS}:DropsStreamText",
        "--corpus",
        str(tmp_path / "corpus"),
        "--report-dir",
        str(reports),
        "-v",
    )
    results = (reports / "results.json").read_text("utf-8")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "sk-a…(108 chars)" in results  # the failure still says what was lost
    assert_nowhere(key, result.stdout, result.stderr, results)


def test_s14_lint_never_quotes_a_key_held_in_the_payload(tmp_path: Path) -> None:
    key = anthropic_key("s14")
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": key, "content": "x"},
        ],
    }
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    for form in ("text", "json"):
        result = toolwire("lint", str(path), "--format", form)
        assert result.returncode == 1
        assert "pairing.orphan_result" in result.stdout
        shown = result.stdout
        if form == "json":
            shown = json.dumps(json.loads(shown), ensure_ascii=False)
        assert "sk-a…(108 chars)" in shown
        assert_nowhere(key, result.stdout, result.stderr)


def test_s15_probe_binds_no_url_credentials_and_proxy_logs_are_redacted() -> None:
    from tests.probe.fakes import ScriptedModel, good
    from toolwire.harness.probe.runner import ProbeOptions, run_probe
    from toolwire.harness.proxy.process import ProxyProcess, ProxyStartError

    secret = password("s15")
    options = ProbeOptions(f"http://bob:{secret}@127.0.0.1:9/v1", "m", "openai-chat")
    profile = run_probe(options, send=ScriptedModel(good)).profile.as_json()
    assert profile["binding"]["provider"] == "127.0.0.1:9"
    assert profile["binding"]["endpoint"] == "http://127.0.0.1:9/v1/chat/completions"
    assert secret not in json.dumps(profile)

    # A --proxy-cmd proxy that logs its key and dies: the error quotes its log's tail.
    key = anthropic_key("s15")
    code = f"print('starting'); print('upstream key: ' + {key!r}, flush=True); raise SystemExit(3)"
    process = ProxyProcess([sys.executable, "-c", code], port=9, ready_timeout=20)
    with pytest.raises(ProxyStartError) as raised:
        process.start()
    process.cleanup()
    assert "upstream key: sk-a…(108 chars)" in str(raised.value)
    assert_nowhere(key, str(raised.value))
