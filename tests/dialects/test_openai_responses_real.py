"""`toolwire lint` on real-shaped Responses traffic the API accepted: no MUST verdict.

The payloads (tests/dialects/responses_fixtures) are written from public
recordings of api.openai.com/v1/responses (pydantic-ai's cassettes) and the
replay shape openai-agents sends; every one was answered with HTTP 200, so a
MUST verdict on any of them would be a false verdict.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from tests.dialects.responses_fixtures import (
    REASONING_REPLAY_REQUEST,
    REASONING_RESPONSE,
    TEXT_RESPONSE,
    THINKING_REQUEST,
    THINKING_RESPONSE,
    TOOL_CALL_REQUEST,
    TOOL_CALL_RESPONSE,
    TRUNCATED_RESPONSE,
)
from toolwire.harness.dialects import get_codec
from toolwire.harness.lint.check import lint_report

PAYLOADS = {
    "tool-call-request": TOOL_CALL_REQUEST,
    "tool-call-response": TOOL_CALL_RESPONSE,
    "text-response": TEXT_RESPONSE,
    "reasoning-replay-request": REASONING_REPLAY_REQUEST,
    "reasoning-response": REASONING_RESPONSE,
    "truncated-response": TRUNCATED_RESPONSE,
    "thinking-request": THINKING_REQUEST,
    "thinking-response": THINKING_RESPONSE,
}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_accepted_payloads_get_no_must_verdict(name: str) -> None:
    report = lint_report(json.dumps(PAYLOADS[name]), f"{name}.json")
    assert [choice.dialect for _, choice in report.dialects] == ["openai-responses"]
    assert [v.line() for v in report.violations if v.level == "MUST"] == []


def _sse(response: dict[str, Any]) -> str:
    codec = get_codec("openai-responses")
    events = codec.render_stream(codec.parse_response(response))
    return "".join(f"event: {e.event}\ndata: {e.data}\n\n" for e in events)


@pytest.mark.parametrize("response", [REASONING_RESPONSE, THINKING_RESPONSE, TRUNCATED_RESPONSE])
def test_streams_in_openais_grammar_get_no_verdict(response: dict[str, Any]) -> None:
    report = lint_report(_sse(response), "stream.sse")
    assert [choice.dialect for _, choice in report.dialects] == ["openai-responses"]
    assert [v.line() for v in report.violations] == []


def test_a_recorded_cassette_is_read_by_its_uri() -> None:
    def exchange(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        return {
            "request": {
                "method": "POST",
                "uri": "https://api.openai.com/v1/responses",
                "headers": {"Content-Type": ["application/json"]},
                "body": json.dumps(request),
            },
            "response": {
                "status": {"code": 200, "message": "OK"},
                "headers": {"Content-Type": ["application/json"]},
                "body": {"string": json.dumps(response)},
            },
        }

    first = {**TOOL_CALL_REQUEST, "input": TOOL_CALL_REQUEST["input"][:1]}
    cassette = {
        "version": 1,
        "interactions": [
            exchange(first, TOOL_CALL_RESPONSE),
            exchange(TOOL_CALL_REQUEST, TEXT_RESPONSE),
        ],
    }
    report = lint_report(yaml.safe_dump(cassette), "cassette.yaml")
    reasons = {choice.reason for _, choice in report.dialects}
    assert {choice.dialect for _, choice in report.dialects} == {"openai-responses"}
    assert reasons == {"from the URI path /v1/responses"}
    assert [v.line() for v in report.violations if v.level == "MUST"] == []
