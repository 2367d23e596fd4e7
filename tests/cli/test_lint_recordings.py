"""`toolwire lint` on recorded conversations as test suites keep them: a
pydantic-ai cassette (``parsed_body``), a cassette with interactions on other
endpoints (skipped with a note, never a refusal), a HAR 1.2 file (Polly.js).
Bodies are read by the reader `corpus add` uses (harness/corpus/foreign.py)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.support.real_transcripts import (
    PENDING_VERDICTS,
    REAL_DEFECTS,
    RealTranscript,
    by_cassette,
    load_real_transcripts,
    with_requests,
)
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.foreign import read_foreign_cassette
from toolwire.harness.lint.check import LintInputError, lint_report

URI = "https://api.openai.com/v1/responses"
REQUEST = {
    "model": "gpt-5",
    "input": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": None,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            "strict": False,
        }
    ],
}
RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "gpt-5",
    "output": [
        {
            "id": "fc_1",
            "type": "function_call",
            "status": "completed",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
        }
    ],
}


def _parsed_body_interaction(method: str, uri: str, request: Any, response: Any) -> Any:
    """As pydantic-ai's tests/json_body_serializer.py writes one."""
    sent: dict[str, Any] = {"method": method, "uri": uri, "headers": {"host": ["api.openai.com"]}}
    if request is not None:
        sent["parsed_body"] = request
    return {
        "request": sent,
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": ["application/json"]},
            "parsed_body": response,
        },
    }


def _yaml(*interactions: Any) -> str:
    return yaml.safe_dump({"interactions": list(interactions), "version": 1})


def test_a_pydantic_ai_cassette_is_read_through_parsed_body() -> None:
    report = lint_report(_yaml(_parsed_body_interaction("POST", URI, REQUEST, RESPONSE)), "c.yaml")
    assert [c.dialect for _, c in report.dialects] == ["openai-responses"]
    assert [v.line() for v in report.violations if v.level == "MUST"] == []
    assert report.notes == []


def test_interactions_on_other_endpoints_are_skipped_with_a_note() -> None:
    poll = _parsed_body_interaction("GET", f"{URI}/resp_1", None, RESPONSE)
    conversation = _parsed_body_interaction(
        "POST", "https://api.openai.com/v1/conversations", {"metadata": {}}, {"id": "conv_1"}
    )
    call = _parsed_body_interaction("POST", URI, REQUEST, RESPONSE)
    report = lint_report(_yaml(conversation, call, poll), "c.yaml")
    assert [label for label, _ in report.dialects] == ["c.yaml, interaction 2"]
    assert report.notes == [
        "c.yaml, interaction 1: skipped, POST /v1/conversations is not a model-call endpoint",
        "c.yaml, interaction 3: skipped, GET /v1/responses/resp_1 has no request body "
        "(not a model call: nothing to judge)",
    ]


def test_a_broken_call_beside_a_skipped_interaction_is_still_caught() -> None:
    broken = json.loads(json.dumps(RESPONSE))
    broken["output"][0]["arguments"] = '{"city": '
    poll = _parsed_body_interaction("GET", f"{URI}/resp_1", None, RESPONSE)
    report = lint_report(
        _yaml(poll, _parsed_body_interaction("POST", URI, REQUEST, broken)), "c.yaml"
    )
    assert any(v.code == "fidelity.arguments" for v in report.violations if v.level == "MUST")


def test_a_cassette_with_nothing_to_judge_is_an_error_not_a_pass() -> None:
    poll = _parsed_body_interaction("GET", f"{URI}/resp_1", None, RESPONSE)
    with pytest.raises(LintInputError, match="no interaction is a model call"):
        lint_report(_yaml(poll), "c.yaml")


def test_the_cli_prints_the_notes(tmp_path: Path) -> None:
    poll = _parsed_body_interaction("GET", f"{URI}/resp_1", None, RESPONSE)
    path = tmp_path / "c.yaml"
    path.write_text(_yaml(_parsed_body_interaction("POST", URI, REQUEST, RESPONSE), poll))
    result = CliRunner().invoke(cli, ["lint", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "interaction 2: skipped, GET /v1/responses/resp_1 has no request body" in result.output
    result = CliRunner().invoke(cli, ["lint", str(path), "--format", "json"])
    assert len(json.loads(result.output)["notes"]) == 1


def _har(response_content: dict[str, Any]) -> dict[str, Any]:
    """A HAR 1.2 log as Polly.js writes one (headers as name/value lists)."""
    return {
        "log": {
            "version": "1.2",
            "creator": {"name": "Polly.JS", "version": "6.0.6"},
            "entries": [
                {
                    "request": {
                        "method": "POST",
                        "url": URI,
                        "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "content-type", "value": "application/json"}],
                        "postData": {"mimeType": "application/json", "text": json.dumps(REQUEST)},
                    },
                    "response": {
                        "status": 200,
                        "statusText": "OK",
                        "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "content-type", "value": "application/json"}],
                        "content": {"mimeType": "application/json", **response_content},
                    },
                }
            ],
        }
    }


@pytest.mark.parametrize(
    "content",
    [
        {"text": json.dumps(RESPONSE)},
        {"text": base64.b64encode(json.dumps(RESPONSE).encode()).decode(), "encoding": "base64"},
    ],
    ids=["text", "base64"],
)
def test_a_har_file_is_read_as_the_cassette_it_holds(
    content: dict[str, Any], tmp_path: Path
) -> None:
    text = json.dumps(_har(content))
    report = lint_report(text, "recording.har")
    assert [c.dialect for _, c in report.dialects] == ["openai-responses"]
    assert [v.line() for v in report.violations if v.level == "MUST"] == []
    path = tmp_path / "recording.har"
    path.write_text(text)
    exchanges, _ = read_foreign_cassette(path)  # corpus add reads it the same way
    assert [json.loads(e.response_body)["id"] for e in exchanges] == ["resp_1"]


def _real_cassettes() -> list[Any]:
    try:
        transcripts = load_real_transcripts()
    except pytest.skip.Exception:
        return []
    groups = by_cassette(with_requests(transcripts))  # response-only captures are no cassette
    return [pytest.param(items, id=f"{repo}:{path}") for (repo, path), items in groups.items()]


_CONTENT_TYPES = {"sse": "text/event-stream", "json-array": "application/json"}


def _recorded(transcript: RealTranscript) -> dict[str, Any]:
    """One interaction as its suite recorded it: pydantic-ai keeps parsed_body."""
    parsed = transcript.source[0].endswith("pydantic-ai")
    request: dict[str, Any] = {"method": "POST", "uri": transcript.uri, "headers": {}}
    request["parsed_body" if parsed else "body"] = (
        transcript.request_body if parsed else json.dumps(transcript.request_body)
    )
    response: dict[str, Any] = {"status": {"code": transcript.status_code, "message": ""}}
    if transcript.kind == "stream":
        kind = _CONTENT_TYPES.get(transcript.stream_format or "sse", "text/plain")
        response.update(headers={"content-type": [kind]}, body={"string": transcript.wire_text()})
    elif parsed:
        response.update(headers={"content-type": ["application/json"]})
        response["parsed_body"] = transcript.response_body
    else:
        response.update(headers={"content-type": ["application/json"]})
        response["body"] = {"string": json.dumps(transcript.response_body)}
    return {"request": request, "response": response}


@pytest.mark.parametrize("transcripts", _real_cassettes())
def test_every_real_cassette_lints_whole(transcripts: list[RealTranscript]) -> None:
    """Each upstream cassette, rebuilt in its suite's own form, reads whole; its
    MUST verdicts are only those listed (pending false ones, and true ones)."""
    text = yaml.safe_dump({"version": 1, "interactions": [_recorded(t) for t in transcripts]})
    report = lint_report(text, "cassette.yaml")
    assert len(report.dialects) == len(transcripts)
    # Any server speaking DeepSeek's reasoning_content is read as deepseek-chat.
    bodies = [[t.request_body, t.response_body, t.sse_events] for t in transcripts]
    deepseek = '"reasoning_content"' in json.dumps(bodies)
    expected_dialects = [
        "deepseek-chat" if deepseek and t.dialect == "openai-chat" else t.dialect
        for t in transcripts
    ]
    assert [c.dialect for _, c in report.dialects] == expected_dialects
    expected = {code for t in transcripts for code in PENDING_VERDICTS.get(t.name, ("", ()))[1]}
    stem = transcripts[0].name.rsplit("__", 1)[0]
    expected |= set(REAL_DEFECTS.get(stem, ("", ()))[1])
    assert {v.code for v in report.violations if v.level == "MUST"} == expected
