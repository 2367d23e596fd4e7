"""What `toolwire lint` reads, and the dialect it says it read it in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from toolwire.harness.cli.main import cli
from toolwire.harness.lint.check import lint_report


def _lint(*args: str) -> Result:
    return CliRunner().invoke(cli, ["lint", *args], catch_exceptions=False)


# A plain-text Anthropic exchange: no system, no block that only Anthropic
# has, so nothing in the request body tells it from Chat Completions.
ANTHROPIC_REQUEST = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 256,
    "messages": [{"role": "user", "content": "Say hello."}],
}
ANTHROPIC_RESPONSE = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "Hello."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 9, "output_tokens": 3},
}


def _cassette(uri: str, headers: dict[str, list[str]], response: Any) -> dict[str, Any]:
    return {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": uri,
                    "headers": {"Content-Type": ["application/json"], **headers},
                    "body": json.dumps(ANTHROPIC_REQUEST),
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"Content-Type": ["application/json"]},
                    "body": {"string": json.dumps(response)},
                },
            }
        ],
    }


def test_an_anthropic_cassette_is_read_by_its_uri_path_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "hello.yaml"
    path.write_text(
        yaml.safe_dump(_cassette("https://api.anthropic.com/v1/messages", {}, ANTHROPIC_RESPONSE))
    )
    result = _lint(str(path))
    assert result.exit_code == 0, result.output
    assert f"{path}: read as anthropic-messages (from the URI path /v1/messages)" in result.output


def test_the_anthropic_version_header_names_the_dialect_behind_any_path(tmp_path: Path) -> None:
    document = _cassette(
        "http://127.0.0.1:4000/proxy/anthropic",
        {"anthropic-version": ["2023-06-01"]},
        ANTHROPIC_RESPONSE,
    )
    path = tmp_path / "proxied.yaml"
    path.write_text(yaml.safe_dump(document))
    result = _lint(str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    [read] = json.loads(result.output)["dialects"]
    assert read == {
        "source": str(path),
        "dialect": "anthropic-messages",
        "reason": "from the anthropic-version request header",
    }


def test_without_uri_or_header_evidence_the_body_is_guessed_and_the_guess_is_said(
    tmp_path: Path,
) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(ANTHROPIC_REQUEST))
    result = _lint(str(path))
    assert "read as openai-chat (guessed from the body; pass --dialect if it is wrong)" in (
        result.output
    )
    given = _lint(str(path), "--dialect", "anthropic-messages")
    assert "read as anthropic-messages (given with --dialect)" in given.output


def test_a_chat_completions_path_still_tells_deepseek_and_qwen_from_the_body() -> None:
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    qwen_text = "<tool_call>\n<function=f>\n</function>\n</tool_call>"
    response = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": qwen_text},
                "finish_reason": "stop",
            }
        ],
    }
    document = _cassette("http://127.0.0.1:8000/v1/chat/completions", {}, response)
    document["interactions"][0]["request"]["body"] = json.dumps(request)
    report = lint_report(json.dumps(document), "served.json")
    [(_, choice)] = report.dialects
    assert choice.dialect == "qwen-xml"
    assert choice.reason.startswith("from the URI path /v1/chat/completions")
    response["choices"][0]["message"] = {"role": "assistant", "content": "ok"}
    document["interactions"][0]["request"]["uri"] = "https://api.deepseek.com/chat/completions"
    document["interactions"][0]["response"]["body"]["string"] = json.dumps(response)
    [(_, choice)] = lint_report(json.dumps(document), "deepseek.json").dialects
    assert (choice.dialect, choice.reason) == (
        "deepseek-chat",
        "from the URI path /chat/completions on host api.deepseek.com",
    )


def test_the_cassettes_own_toolwire_block_wins_over_guessing() -> None:
    case = Path(__file__).parents[2] / "corpus" / "single-tool" / "array-arguments-openai.yaml"
    report = lint_report(case.read_text(encoding="utf-8"), case.name)
    assert {choice.reason for _, choice in report.dialects} == {
        "from the cassette's toolwire: block"
    }


# --- JSON-lines chunk captures (one chunk object per line) -----------------------


def _anthropic_chunks(second_index: int) -> list[dict[str, Any]]:
    message = {k: v for k, v in ANTHROPIC_RESPONSE.items() if k != "content"}
    return [
        {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": second_index,
            "content_block": {"type": "tool_use", "id": "toolu_01", "name": "f", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": second_index,
            "delta": {"type": "input_json_delta", "partial_json": '{"a": 1}'},
        },
        {"type": "content_block_stop", "index": second_index},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


def _jsonl(path: Path, chunks: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(chunk) + "\n" for chunk in chunks))
    return path


def test_a_json_lines_capture_is_read_as_a_stream(tmp_path: Path) -> None:
    good = _jsonl(tmp_path / "good.chunks.txt", _anthropic_chunks(1))
    result = _lint(str(good))
    assert result.exit_code == 0, result.output
    assert "read as anthropic-messages" in result.output
    # The same capture with the second block opened at the first one's index:
    # judged as a stream, so the collision is found.
    broken = _jsonl(tmp_path / "broken.chunks.txt", _anthropic_chunks(0))
    result = _lint(str(broken), "--format", "json")
    assert result.exit_code == 1
    assert {v["code"] for v in json.loads(result.output)["violations"]} & {
        "stream.index_collision",
        "stream.event_order",
    }


def test_json_lines_of_openai_chunks(tmp_path: Path) -> None:
    def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-4o",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    path = _jsonl(
        tmp_path / "openai.jsonl",
        [chunk({"role": "assistant", "content": "Hel"}, None), chunk({"content": "lo"}, "stop")],
    )
    result = _lint(str(path))
    assert result.exit_code == 0, result.output
    assert "read as openai-chat" in result.output


def test_a_file_it_cannot_read_lists_the_formats_it_accepts(tmp_path: Path) -> None:
    binary = tmp_path / "capture.bin"
    binary.write_bytes(b"\xff\xfe\x00binary")
    result = _lint(str(binary))
    assert result.exit_code == 2
    assert "not UTF-8 text" in result.output
    assert "JSON lines" in result.output
    assert "Traceback" not in result.output
    garbled = tmp_path / "half.json"
    garbled.write_text('{"messages": [\n')
    result = _lint(str(garbled))
    assert result.exit_code == 2
    assert "not valid JSON" in result.output and "vcrpy cassette" in result.output
