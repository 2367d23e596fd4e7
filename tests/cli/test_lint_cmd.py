from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.support.real_transcripts import (
    PENDING_VERDICTS,
    PROJECT_ROOT,
    RealTranscript,
    load_real_transcripts,
    with_requests,
)
from toolwire.harness.cli.main import cli


def _lint(*args: str) -> Result:
    return CliRunner().invoke(cli, ["lint", *args], catch_exceptions=False)


ORPHAN = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_01", "content": "ok"},
    ],
}


def test_lint_finds_the_code_with_its_path_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(ORPHAN))
    result = _lint(str(path), "--format", "json")
    assert result.exit_code == 1
    codes = {(v["code"], v["path"]) for v in json.loads(result.output)["violations"]}
    assert ("pairing.orphan_result", "messages[2]") in codes
    assert ("pairing.unanswered_call", "messages[1].tool_calls[0]") in codes


def test_lint_reads_whole_cassettes_and_streams() -> None:
    cassette = PROJECT_ROOT / "corpus" / "streaming" / "parallel-anthropic.yaml"
    result = _lint(str(cassette))
    assert result.exit_code == 0, result.output
    assert "0 MUST violation(s)" in result.output


def test_lint_reads_sse_text(tmp_path: Path) -> None:
    path = tmp_path / "stream.txt"
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}
        ],
    }
    path.write_text(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n")
    result = _lint(str(path))
    assert result.exit_code == 0, result.output


def test_lint_of_something_that_is_no_payload_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just some notes\n")
    result = _lint(str(path))
    assert result.exit_code == 2
    assert "not a request, response, stream or cassette" in result.output
    assert "Traceback" not in result.output


def _real() -> list[RealTranscript]:
    try:
        return load_real_transcripts()
    except pytest.skip.Exception:
        return []


@pytest.mark.parametrize("transcript", with_requests(_real()), ids=lambda t: t.name)
def test_no_must_violation_in_any_real_request(transcript: RealTranscript, tmp_path: Path) -> None:
    """Every recorded request was accepted by the real API."""
    path = tmp_path / "request.json"
    path.write_text(json.dumps(transcript.request_body))
    result = _lint(str(path), "--dialect", transcript.dialect, "--format", "json")
    violations = json.loads(result.output)["violations"]
    musts = sorted({v["code"] for v in violations if v["level"] == "MUST"})
    if transcript.name in PENDING_VERDICTS:  # a known false verdict, listed with its reason
        assert tuple(musts) == PENDING_VERDICTS[transcript.name][1]
        return
    assert musts == []
    assert result.exit_code == 0
