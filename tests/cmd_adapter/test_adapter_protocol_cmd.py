"""`toolwire adapter-protocol`: print the schema, check an adapter, check a transcript."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.cmd_adapter.test_cmd_adapter import FAKE
from toolwire.harness.adapters.cmd.protocol import schema_text
from toolwire.harness.cli.main import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "node-adapter"


def _run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["adapter-protocol", *args], input=stdin)


def test_schema_prints_the_shipped_schema() -> None:
    result = _run("--schema")
    assert result.exit_code == 0
    assert result.output == schema_text()
    assert json.loads(result.output)["title"].startswith("toolwire cmd: adapter protocol")


def test_check_passes_a_correct_adapter_and_lists_what_it_tried() -> None:
    result = _run("--check", f"{sys.executable} {EXAMPLE / 'twin.py'}")
    assert result.exit_code == 0, result.output
    assert "handshake: example-openai-to-anthropic 0.1.0, 1 direction(s)" in result.output
    assert "request openai-chat->anthropic-messages: result is valid" in result.output
    assert result.output.rstrip().endswith("protocol OK")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed on this machine")
def test_check_passes_the_node_example() -> None:
    result = _run("--check", f"node {EXAMPLE / 'adapter.js'}")
    assert result.exit_code == 0, result.output
    assert "protocol OK" in result.output


def test_check_tries_every_direction_and_the_id_mapping() -> None:
    result = _run("--check", f"{sys.executable} {FAKE} echo")
    assert result.exit_code == 0, result.output
    for kind in ("request", "response", "stream"):
        assert f"{kind} openai-chat->openai-chat: result is valid" in result.output
        assert f"{kind} openai-chat->openai-chat: id_mapping answer is valid" in result.output


def test_check_accepts_error_answers_as_valid_messages() -> None:
    result = _run("--check", f"{sys.executable} {FAKE} error")
    assert result.exit_code == 0, result.output
    assert "error answer is valid (Nope: cannot do that)" in result.output


def test_check_accepts_unsupported_answers_as_valid_messages() -> None:
    result = _run("--check", f"{sys.executable} {FAKE} decline")
    assert result.exit_code == 0, result.output
    assert "unsupported answer is valid (the name is too long)" in result.output


def test_check_stops_at_the_first_invalid_message_with_its_path() -> None:
    result = _run("--check", f"{sys.executable} {FAKE} invalid-result")
    assert result.exit_code == 1
    assert "INVALID: request openai-chat->openai-chat: message 2 from adapter (result)" in (
        result.output
    )
    assert "at $.payload: 42 is not valid" in result.output


def test_check_reports_an_invalid_handshake() -> None:
    result = _run("--check", f"{sys.executable} {FAKE} bad-direction")
    assert result.exit_code == 1
    assert "INVALID:" in result.output
    assert "at $.directions[0][2]: 'mistral-chat' is not one of" in result.output


def test_validate_checks_a_transcript_line_by_line(tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(
        '{"type": "handshake", "protocol": 1, "name": "x", "version": "1",'
        ' "directions": [["request", "openai-chat", "openai-chat"]]}\n'
        "\n"
        '{"type": "convert", "id": 1, "kind": "request", "source": "openai-chat",'
        ' "target": "openai-chat", "payload": {}}\n'
        '{"type": "result", "id": "1", "payload": {}}\n'
    )
    result = _run("--validate", str(transcript))
    assert result.exit_code == 1
    assert "INVALID: line 4 (result, from adapter) is invalid: at $.id: '1' is not of type" in (
        result.output
    )


def test_validate_reads_stdin_and_counts_valid_messages() -> None:
    result = _run("--validate", "-", stdin='{"type": "shutdown"}\n')
    assert result.exit_code == 0
    assert "1 message(s) valid" in result.output


def test_validate_names_a_line_that_is_not_json() -> None:
    result = _run("--validate", "-", stdin='{"type": "shutdown"}\nnope\n')
    assert result.exit_code == 1
    assert "line 2 of the transcript is not JSON" in result.output


@pytest.mark.parametrize("args", [(), ("--schema", "--check", "x")], ids=["no mode", "two modes"])
def test_exactly_one_mode_is_a_usage_rule(args: tuple[str, ...]) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert "give exactly one of --schema, --check COMMAND, --validate FILE" in result.output
