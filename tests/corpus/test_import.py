"""`toolwire corpus add`: a cassette recorded elsewhere becomes a scrubbed, valid case."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from toolwire.harness.atomic_write import FileWriteError
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.importer import AddOptions, import_cassette
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.errors import CorpusError

# Built from pieces so that no scanner sees a key-like literal in this file.
HEADER_KEY = "sk-" + "proj-" + "H3ad3rK3y" * 4
BODY_KEY = "sk-" + "ant-api03-" + "B0dyK3y_" * 6 + "AA"
COOKIE = "cf_clearance=" + "c00kieValue" * 3

OPENAI_URI = "https://api.openai.com/v1/chat/completions"
ANTHROPIC_URI = "https://api.anthropic.com/v1/messages"

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def call(call_id: str, city: str) -> dict[str, Any]:
    arguments = json.dumps({"city": city})
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }


def openai_answer(*calls: dict[str, Any], content: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-Aa1Bb2Cc3Dd4Ee5Ff6",
        "object": "chat.completion",
        "created": 1751500000,
        "model": "gpt-4o-2024-08-06",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "tool_calls": list(calls)},
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 50, "completion_tokens": 30, "total_tokens": 80},
    }


def vcr_interaction(
    request: Any,
    response: Any,
    *,
    uri: str = OPENAI_URI,
    request_headers: dict[str, list[str]] | None = None,
    response_headers: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """One interaction in the layout vcrpy and pytest-recording write."""
    return {
        "request": {
            "body": json.dumps(request),
            "headers": request_headers or {"Content-Type": ["application/json"]},
            "method": "POST",
            "uri": uri,
        },
        "response": {
            "body": {
                "string": response if isinstance(response, str | bytes) else json.dumps(response)
            },
            "headers": response_headers or {"Content-Type": ["application/json"]},
            "status": {"code": 200, "message": "OK"},
        },
    }


def write_cassette(folder: Path, name: str, *interactions: dict[str, Any]) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"interactions": list(interactions), "version": 1}), "utf-8")
    return path


def secret_cassette(folder: Path) -> Path:
    """A key in a header and one in the body, plus a cookie, as a careless recording holds them."""
    request = {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": f"Use the key {BODY_KEY} for the weather service."},
            {"role": "user", "content": "Weather in Paris and Rome?"},
        ],
        "tools": [TOOL],
    }
    answer = openai_answer(call("call_P4r1s000000000000000001", "Paris"), call("call_R0m3", "Rome"))
    return write_cassette(
        folder,
        "test_weather_two_cities",
        vcr_interaction(
            request,
            answer,
            request_headers={
                "Authorization": [f"Bearer {HEADER_KEY}"],
                "Content-Type": ["application/json"],
                "Cookie": [COOKIE],
                "OpenAI-Organization": ["org-" + "Abcdefghijklmnop1234"],
            },
            response_headers={
                "Content-Type": ["application/json"],
                "Set-Cookie": [f"{COOKIE}; path=/"],
                "openai-project": ["proj_" + "Abcdefghijklmnop1234"],
            },
        ),
    )


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_keys_in_a_header_and_in_the_body_are_scrubbed(workdir: Path) -> None:
    cassette = secret_cassette(workdir)
    assert HEADER_KEY in cassette.read_text() and BODY_KEY in cassette.read_text()
    result = run("corpus", "add", str(cassette), "--corpus", "corpus")
    assert result.exit_code == 0, result.output
    path = workdir / "corpus" / "parallel" / "test-weather-two-cities.yaml"
    text = path.read_text(encoding="utf-8")
    for secret in (HEADER_KEY, BODY_KEY, COOKIE, "c00kieValue", "Abcdefghijklmnop1234"):
        assert secret not in text
        assert secret not in result.output
    assert "Use the key REDACTED for the weather service." in text
    for header in ("authorization", "cookie", "openai-organization", "openai-project"):
        assert f"{header}:" not in text.lower()
    assert "removed headers: authorization, cookie, openai-organization" in result.output
    assert "Anthropic API key x1" in result.output
    assert result.output.splitlines()[-1] == (
        "added parallel/test-weather-two-cities (openai-chat, profile openai; features: "
        "parallel; 1 interaction, 2 tool calls) -> corpus/parallel/test-weather-two-cities.yaml"
    )
    assert validate_corpus(workdir / "corpus").ok
    case = load_case(path, workdir / "corpus")
    assert case.provenance.kind == "recorded"
    assert case.provenance.endpoint == OPENAI_URI
    assert case.provenance.model == "gpt-4o"
    assert case.provenance.recorder == "vcrpy (imported by toolwire 0.1.0)"


def test_an_existing_id_is_refused_with_the_file_and_the_flag(workdir: Path) -> None:
    cassette = secret_cassette(workdir)
    first = run("corpus", "add", str(cassette), "--corpus", "corpus", "--id", "parallel/cities")
    assert first.exit_code == 0, first.output
    before = (workdir / "corpus" / "parallel" / "cities.yaml").read_bytes()

    again = run("corpus", "add", str(cassette), "--corpus", "corpus", "--id", "parallel/cities")
    assert again.exit_code == 2
    assert again.stderr == (
        "toolwire: error: corpus/parallel/cities.yaml: case 'parallel/cities' already exists "
        "(pass --force to replace it, or --id to add this cassette under another id)\n"
    )
    assert (workdir / "corpus" / "parallel" / "cities.yaml").read_bytes() == before

    forced = run(
        "corpus", "add", str(cassette), "--corpus", "corpus", "--id", "parallel/cities", "--force"
    )
    assert forced.exit_code == 0, forced.output
    assert forced.output.splitlines()[-1].startswith("replaced parallel/cities ")


def test_the_same_recording_twice_names_the_case_it_is_already(workdir: Path) -> None:
    cassette = secret_cassette(workdir)
    options = AddOptions(workdir / "corpus")
    assert import_cassette(cassette, options).case_id == "parallel/test-weather-two-cities"
    with pytest.raises(CorpusError, match="already in the corpus as case 'parallel/test-weather"):
        import_cassette(cassette, options)
    forced = import_cassette(cassette, AddOptions(workdir / "corpus", force=True))
    assert (forced.case_id, forced.replaced) == ("parallel/test-weather-two-cities", True)
    assert [p.name for p in (workdir / "corpus").rglob("*.yaml")] == [
        "test-weather-two-cities.yaml"
    ]
    assert validate_corpus(workdir / "corpus").ok


def _leftovers(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("broken", ["os.link", "os.fsync"])
def test_an_interrupted_write_leaves_no_half_file(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    cassette = secret_cassette(workdir)

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt("power cut")

    monkeypatch.setattr(broken, interrupted)
    with pytest.raises(KeyboardInterrupt):
        import_cassette(cassette, AddOptions(workdir / "corpus", case_id="parallel/cut"))
    assert _leftovers(workdir / "corpus") == []


def test_an_interrupted_forced_replace_keeps_the_old_case(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassette = secret_cassette(workdir)
    options = AddOptions(workdir / "corpus", case_id="parallel/cut")
    import_cassette(cassette, options)
    before = (workdir / "corpus" / "parallel" / "cut.yaml").read_bytes()

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(FileWriteError, match="No space left on device"):
        import_cassette(
            cassette, AddOptions(workdir / "corpus", case_id="parallel/cut", force=True)
        )
    assert _leftovers(workdir / "corpus") == ["parallel/cut.yaml"]
    assert (workdir / "corpus" / "parallel" / "cut.yaml").read_bytes() == before


def test_a_gzipped_pytest_recording_body_is_decoded(workdir: Path) -> None:
    request = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Paris?"}],
        "tools": [TOOL],
    }
    answer = json.dumps(openai_answer(call("call_Gz1p", "Paris"), content="Let me check.")).encode()
    cassette = write_cassette(
        workdir,
        "test_gzip",
        vcr_interaction(
            request,
            gzip.compress(answer),
            response_headers={
                "Content-Encoding": ["gzip"],
                "Content-Type": ["application/json"],
                "Content-Length": ["999"],
                "Transfer-Encoding": ["chunked"],
            },
        ),
    )
    assert "!!binary" in cassette.read_text()
    result = import_cassette(cassette, AddOptions(workdir / "corpus"))
    assert result.case_id == "mixed-text/test-gzip"
    assert result.features == ("single-tool", "mixed-text")
    case = load_case(result.path, workdir / "corpus")
    stored = case.interactions[0]
    assert stored.response_json() == json.loads(answer)
    assert stored.response_header("Content-Encoding") is None
    assert stored.response_header("Transfer-Encoding") is None
    assert stored.response_header("Content-Length") == str(len(stored.response_body_text.encode()))


def test_a_parsed_body_cassette_and_an_anthropic_error_result(workdir: Path) -> None:
    # The JSON-body layout of pydantic-ai's suite: `parsed_body` instead of text.
    request = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Read notes.txt"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_01A", "name": "read", "input": {"p": "n"}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01A",
                        "content": "ENOENT: no such file",
                        "is_error": True,
                    }
                ],
            },
        ],
        "tools": [{"name": "read", "input_schema": {"type": "object"}}],
    }
    answer = {
        "id": "msg_01XYZ",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "The file does not exist."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 80, "output_tokens": 9},
    }
    document = {
        "interactions": [
            {
                "request": {
                    "headers": {"x-api-key": [BODY_KEY], "anthropic-version": ["2023-06-01"]},
                    "method": "POST",
                    "parsed_body": request,
                    "uri": "http://127.0.0.1:4000/anthropic/proxy",  # detected from the payloads
                },
                "response": {
                    "headers": {"content-type": ["application/json"]},
                    "parsed_body": answer,
                    "status": {"code": 200, "message": "OK"},
                },
            }
        ],
        "version": 1,
    }
    cassette = workdir / "test_missing_file.json"
    cassette.write_text(json.dumps(document), encoding="utf-8")
    result = import_cassette(cassette, AddOptions(workdir / "corpus"))
    assert (result.case_id, result.dialect) == (
        "error-result/test-missing-file",
        "anthropic-messages",
    )
    assert result.features == ("single-tool", "error-result")
    assert BODY_KEY not in result.path.read_text(encoding="utf-8")


def test_an_undetectable_dialect_names_the_fix_and_never_the_key(workdir: Path) -> None:
    cassette = write_cassette(
        workdir,
        "test_embeddings",
        vcr_interaction(
            {"input": "hello", "model": "text-embedding-3-small"},
            {"data": [{"embedding": [0.1]}]},
            uri=f"https://api.openai.com/v1/embeddings?api_key={HEADER_KEY}",
        ),
    )
    result = run("corpus", "add", str(cassette), "--corpus", "corpus")
    assert result.exit_code == 2
    assert "cannot tell the dialect" in result.stderr
    assert "pass --dialect" in result.stderr
    assert HEADER_KEY not in result.output
    assert not (workdir / "corpus").exists()


def test_a_payload_the_dialect_refuses_is_refused_without_quoting_secrets(workdir: Path) -> None:
    request = {"model": "gpt-4o", "messages": f"not a list {BODY_KEY}"}
    cassette = write_cassette(workdir, "test_bad", vcr_interaction(request, openai_answer()))
    with pytest.raises(CorpusError) as caught:
        import_cassette(cassette, AddOptions(workdir / "corpus", dialect="openai-chat"))
    assert "does not parse as openai-chat" in str(caught.value)
    assert BODY_KEY not in str(caught.value)


def test_a_cassette_with_no_tool_feature_asks_for_one(workdir: Path) -> None:
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}
    answer = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1767225600,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hello"},
                "finish_reason": "stop",
            }
        ],
    }
    cassette = write_cassette(workdir, "test_hi", vcr_interaction(request, answer))
    with pytest.raises(CorpusError, match="shows no tool-calling feature"):
        import_cassette(cassette, AddOptions(workdir / "corpus"))
    added = import_cassette(cassette, AddOptions(workdir / "corpus", features=("empty-content",)))
    assert added.case_id == "empty-content/test-hi"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"version": 0, "interactions": [{}]}, "cassette version 0 is not supported"),
        ({"requests": []}, "is not a vcrpy cassette"),
        ({"version": 1, "interactions": []}, "has no interactions"),
    ],
)
def test_not_a_cassette(workdir: Path, document: dict[str, Any], message: str) -> None:
    path = workdir / "odd.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = run("corpus", "add", str(path), "--corpus", "corpus")
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_bad_id_is_refused(workdir: Path) -> None:
    cassette = secret_cassette(workdir)
    result = run("corpus", "add", str(cassette), "--corpus", "corpus", "--id", "Parallel/Two")
    assert result.exit_code == 2
    assert "'Parallel/Two' is not a case id" in result.stderr
