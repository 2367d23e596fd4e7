"""`toolwire lint` applies the xml rules to a Qwen3-Coder tool parser's
served output (vLLM or sglang with --tool-call-parser qwen3_coder): a call
left in the content, a value not typed by the request's schema, a call run
with arguments the text does not hold. A correct output is judged and passes;
raw model text (the corpus form) is not a parser output and is not judged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from toolwire.harness.cli.main import cli
from toolwire.harness.lint import xml_rules
from toolwire.harness.payloads import parse_payload

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]
REQUEST = {
    "model": "Qwen/Qwen3-Coder-30B-A3B-Instruct",
    "messages": [{"role": "user", "content": "Weather in Paris and Oslo?"}],
    "tools": TOOLS,
}
OSLO_MARKUP = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n"
    "</function>\n</tool_call>"
)


def served(content: str | None, *calls: tuple[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"chatcmpl-tool-{n}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for n, (name, arguments) in enumerate(calls)
        ]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1776071513,
        "model": "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    }


def cassette(tmp_path: Path, response: dict[str, Any], name: str = "served.yaml") -> Path:
    document = {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "http://127.0.0.1:8000/v1/chat/completions",
                    "headers": {"Content-Type": ["application/json"]},
                    "body": json.dumps(REQUEST),
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"Content-Type": ["application/json"]},
                    "body": {"string": json.dumps(response)},
                },
            }
        ],
    }
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def lint(*args: str) -> Result:
    return CliRunner().invoke(cli, ["lint", "--format", "json", *args], catch_exceptions=False)


def codes(result: Result) -> list[str]:
    return sorted(v["code"] for v in json.loads(result.output)["violations"])


def test_a_call_left_in_the_content_and_an_untyped_value_are_found(tmp_path: Path) -> None:
    path = cassette(
        tmp_path,
        served("Checking both.\n" + OSLO_MARKUP, ("get_weather", {"city": "Paris", "days": "3"})),
    )
    result = lint(str(path))
    assert result.exit_code == 1
    assert codes(result) == ["xml.call_not_parsed", "xml.parameter_type"]
    dialects = json.loads(result.output)["dialects"]
    assert dialects[0]["dialect"] == "qwen-xml"


def test_a_correct_parser_output_is_judged_and_passes(tmp_path: Path) -> None:
    response = served(
        "Checking both.",
        ("get_weather", {"city": "Paris", "days": 3}),
        ("get_weather", {"city": "Oslo"}),
    )
    path = cassette(tmp_path, response)
    result = lint("--dialect", "qwen-xml", str(path))
    assert result.exit_code == 0, result.output
    assert codes(result) == []
    # Judged, not skipped: the xml rules had calls to look at.
    payload = parse_payload("qwen-xml", "response", response, "qwen3-coder", None)
    assert xml_rules.parser_output_checks(payload) == []


def test_a_value_the_peers_read_differently_is_accepted(tmp_path: Path) -> None:
    # "days" written as 3.0: toolwire reads an integer 3, a peer may keep 3.0.
    path = cassette(tmp_path, served(None, ("get_weather", '{"city": "Paris", "days": 3.0}')))
    assert codes(lint("--dialect", "qwen-xml", str(path))) == []


def test_raw_model_text_is_no_parser_output_unless_said(tmp_path: Path) -> None:
    # The corpus form: the model's markup in content, no structured calls.
    path = cassette(tmp_path, served("Checking.\n" + OSLO_MARKUP))
    result = lint(str(path))
    assert codes(result) == []
    payload = parse_payload("qwen-xml", "response", served(OSLO_MARKUP), "qwen3-coder", None)
    assert xml_rules.parser_output_checks(payload) is None
    # Said to be a parser's output, the markup left in content is a missed call.
    assert codes(lint("--parser-output", str(path))) == ["xml.call_not_parsed"]


def test_nothing_to_judge_gives_no_verdict() -> None:
    plain = parse_payload("qwen-xml", "response", served("Hello."), "qwen3-coder", None)
    assert xml_rules.parser_output_checks(plain, forced=True) is None
    other = parse_payload("openai-chat", "response", served("Hello."), "openai", None)
    assert xml_rules.parser_output_checks(other, forced=True) is None
