"""`toolwire probe` through click's CliRunner: output, exit codes, one-line errors."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator

from tests.probe.support import KINDS, serving
from toolwire.harness.corpus.case import Interaction, frozen_headers
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.probe.requests import first_request
from toolwire.harness.probe.schema import SCHEMA_ID, validate_profile
from toolwire.harness.probe.steps import BASIC_PROMPT
from toolwire.harness.proxy.process import free_port
from toolwire.harness.proxy.replay import ReplayUpstream

KEY_VARIABLE = "TOOLWIRE_PROBE_TEST_KEY"
KEY = "sk-probe-cli-0123456789abcdefghij"


def _probe(*args: str, env: dict[str, str] | None = None) -> Result:
    from toolwire.harness.cli.main import cli

    return CliRunner().invoke(cli, ["probe", *args], env=env, catch_exceptions=False)


def _kind_args(name: str, base_url: str) -> list[str]:
    kind = KINDS[name]
    return ["--base-url", base_url, "--model", kind.model, "--dialect", kind.dialect]


def _one_line_error(result: Result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("toolwire: error:")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_schema_prints_a_valid_draft_2020_12_schema_without_probing() -> None:
    result = _probe("--schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == SCHEMA_ID
    assert set(schema["properties"]["evidence"]["required"]) == {
        "basicFormat",
        "schemaAdherence",
        "singleToolLoop",
        "parallelCalls",
        "errorRepair",
        "reasoningState",
        "streaming",
    }


def test_a_probe_prints_the_profile_on_stdout_and_the_steps_on_stderr() -> None:
    with serving(KINDS["openai"]) as (_upstream, base_url):
        result = _probe(*_kind_args("openai", base_url), env={"OPENAI_API_KEY": ""})
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert validate_profile(document) == []
    assert document["toolCallFormat"] == "openai"
    assert "probing without a key" in result.stderr
    assert (
        "  step 4 parallelCalls: pass, supportsParallelToolUse = true "
        "(2 separate calls in one turn (probe_echo, probe_add))"
    ) in result.stderr
    steps = [line for line in result.stderr.splitlines() if line.startswith("  step ")]
    assert [line.split(":")[0] for line in steps] == [
        "  step 1 basicFormat",
        "  step 2 schemaAdherence",
        "  step 3 singleToolLoop",
        "  step 4 parallelCalls",
        "  step 5 errorRepair",
        "  step 6 reasoningState",
        "  step 7 streaming",
    ]


def test_out_and_record_write_the_profile_and_valid_cases(tmp_path: Path) -> None:
    out, record = tmp_path / "profiles" / "deepseek.json", tmp_path / "corpus"
    with serving(KINDS["deepseek"]) as (upstream, base_url):
        args = [*_kind_args("deepseek", base_url), "--api-key-env", KEY_VARIABLE]
        result = _probe(*args, "--out", str(out), "--record", str(record), env={KEY_VARIABLE: KEY})
        received = upstream.received()
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["requiresReasoningReplay"] is True
    assert validate_profile(document) == []
    assert f"profile: {out}" in result.stderr
    assert result.stderr.count("recorded: added probe/deepseek-v4-flash/") == 9
    assert validate_corpus(record).ok
    assert all(dict(r.headers).get("Authorization") == f"Bearer {KEY}" for r in received)
    everything = result.output + "".join(p.read_text() for p in record.rglob("*.yaml"))
    assert KEY not in everything + out.read_text()


def test_an_existing_record_folder_is_refused_before_any_request(tmp_path: Path) -> None:
    kind = KINDS["openai"]
    with serving(kind) as (upstream, base_url):
        first = _probe(*_kind_args("openai", base_url), "--record", str(tmp_path))
        assert first.exit_code == 0, first.output
        upstream.serve(())  # forget what was received
        again = _probe(*_kind_args("openai", base_url), "--record", str(tmp_path))
        assert upstream.received() == ()
    assert again.exit_code == 2
    error = _one_line_error(again)
    assert "basic-format.yaml: already exists; --record never overwrites" in error


def test_an_endpoint_that_is_down_is_one_clear_line_and_exit_3() -> None:
    port = free_port()  # nothing listens there
    base_url = f"http://127.0.0.1:{port}/v1"
    result = _probe("--base-url", base_url, "--model", "m", "--dialect", "openai-chat")
    assert result.exit_code == 3
    error = _one_line_error(result)
    assert f"cannot reach http://127.0.0.1:{port}/v1/chat/completions" in error
    assert "check --base-url and that the server is running" in error


def test_a_401_names_the_status_and_never_the_key() -> None:
    kind = KINDS["openai"]
    body = first_request(kind.dialect, kind.model, BASIC_PROMPT)
    # A server that echoes the whole key back: it must not reach the terminal.
    refusal = {
        "error": {
            "message": f"Incorrect API key provided: {KEY}.",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_api_key",
        }
    }
    interaction = Interaction(
        method="POST",
        uri="https://api.openai.com/v1/chat/completions",
        request_headers=frozen_headers({}),
        request_body_text=json.dumps(body),
        status_code=401,
        status_message="Unauthorized",
        response_headers=frozen_headers({"Content-Type": ("application/json",)}),
        response_body_text=json.dumps(refusal),
    )
    with ReplayUpstream() as upstream:
        upstream.serve([interaction])
        args = _kind_args("openai", upstream.url + "/v1")
        result = _probe(*args, "--api-key-env", KEY_VARIABLE, env={KEY_VARIABLE: KEY})
        assert len(upstream.received()) == 1
    assert result.exit_code == 3
    error = _one_line_error(result)
    assert "the endpoint refused the credentials (HTTP 401: Incorrect API key provided" in error
    assert KEY not in result.output
    assert "REDACTED" in error


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    try:
        yield int(listener.getsockname()[1])
    finally:
        listener.close()


def test_a_silent_endpoint_times_out_with_one_line_and_exit_3(silent_server: int) -> None:
    result = _probe(
        *_kind_args("openai", f"http://127.0.0.1:{silent_server}/v1"), "--timeout", "0.3"
    )
    assert result.exit_code == 3
    assert "no answer within 0.3 s (raise --timeout for slow models)" in _one_line_error(result)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--api-key-env", "TOOLWIRE_PROBE_UNSET"], "TOOLWIRE_PROBE_UNSET is not set or empty"),
        (["--base-url", "ftp://example.invalid"], "is not an http(s) URL"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    base = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--dialect", "openai-chat"]
    result = _probe(*base, *args, env={"TOOLWIRE_PROBE_UNSET": ""})
    assert result.exit_code == 2
    assert message in _one_line_error(result)


def test_an_unknown_dialect_is_refused_by_click() -> None:
    result = _probe("--base-url", "http://x", "--model", "m", "--dialect", "deepseek-chat")
    assert result.exit_code == 2
    assert "Invalid value for '--dialect'" in result.output
