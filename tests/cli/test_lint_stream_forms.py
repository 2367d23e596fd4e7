"""`toolwire lint` on streams in the forms real captures keep them, and on
every real recording in ../shared (both folders, bodiless ones included).

Hand-written payloads in the real shapes: Gemini's streamGenerateContent
without ?alt=sse (one JSON array of GenerateContentResponse, application/json),
and chunk captures without SSE framing (one JSON chunk a line) of Gemini and
of the Responses API.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from tests.support.real_transcripts import (
    PENDING_VERDICTS,
    RealTranscript,
    load_real_transcripts,
)
from toolwire.harness.lint.check import lint_report

GEMINI_CHUNKS: list[dict[str, Any]] = [
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"text": "Looking it up.", "thought": True}],
                },
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 12, "trafficType": "ON_DEMAND"},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-1",
    },
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-1",
    },
]

RESPONSES_CHUNKS: list[dict[str, Any]] = [
    {
        "type": "response.created",
        "sequence_number": 0,
        "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []},
    },
    {
        "type": "response.output_item.added",
        "sequence_number": 1,
        "output_index": 0,
        "item": {
            "id": "fc_1",
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": "call_1",
            "name": "get_weather",
        },
    },
    {
        "type": "response.function_call_arguments.delta",
        "sequence_number": 2,
        "item_id": "fc_1",
        "output_index": 0,
        "delta": '{"city":"Paris"}',
    },
    {
        "type": "response.function_call_arguments.done",
        "sequence_number": 3,
        "item_id": "fc_1",
        "output_index": 0,
        "arguments": '{"city":"Paris"}',
    },
    {
        "type": "response.output_item.done",
        "sequence_number": 4,
        "output_index": 0,
        "item": {
            "id": "fc_1",
            "type": "function_call",
            "status": "completed",
            "arguments": '{"city":"Paris"}',
            "call_id": "call_1",
            "name": "get_weather",
        },
    },
    {
        "type": "response.completed",
        "sequence_number": 5,
        "response": {
            "id": "resp_1",
            "object": "response",
            "status": "completed",
            "output": [
                {
                    "id": "fc_1",
                    "type": "function_call",
                    "status": "completed",
                    "arguments": '{"city":"Paris"}',
                    "call_id": "call_1",
                    "name": "get_weather",
                }
            ],
        },
    },
]


def _musts(report: Any) -> list[str]:
    return [v.line() for v in report.violations if v.level == "MUST"]


def test_a_gemini_json_array_stream_is_read_as_a_stream() -> None:
    report = lint_report(json.dumps(GEMINI_CHUNKS), "stream.json")
    assert [choice.dialect for _, choice in report.dialects] == ["gemini"]
    assert _musts(report) == []


@pytest.mark.parametrize(
    ("chunks", "dialect"), [(GEMINI_CHUNKS, "gemini"), (RESPONSES_CHUNKS, "openai-responses")]
)
def test_a_chunk_per_line_capture_is_read_as_a_stream(
    chunks: list[dict[str, Any]], dialect: str
) -> None:
    text = "".join(json.dumps(chunk) + "\n" for chunk in chunks)
    report = lint_report(text, "stream.chunks.txt")
    assert [choice.dialect for _, choice in report.dialects] == [dialect]
    assert _musts(report) == []


def test_a_broken_call_in_a_json_array_stream_is_still_caught() -> None:
    """Reading the form must not hide what is in it: a call with no name."""
    broken = json.loads(json.dumps(GEMINI_CHUNKS))
    broken[1]["candidates"][0]["content"]["parts"][0]["functionCall"] = {"args": {"city": 1}}
    report = lint_report(json.dumps(broken), "stream.json")
    assert any("schema.response" in line for line in _musts(report))


def test_a_cassette_answering_a_json_array_is_read_as_a_stream() -> None:
    request = {"contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}]}
    cassette = {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "https://generativelanguage.googleapis.com/v1beta/models/"
                    "gemini-2.5-flash:streamGenerateContent",
                    "body": json.dumps(request),
                    "headers": {},
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"Content-Type": ["application/json; charset=UTF-8"]},
                    "body": {"string": json.dumps(GEMINI_CHUNKS, indent=2)},
                },
            }
        ],
    }
    report = lint_report(yaml.safe_dump(cassette), "cassette.yaml")
    assert [choice.dialect for _, choice in report.dialects] == ["gemini"]
    assert _musts(report) == []


def _real() -> list[RealTranscript]:
    try:
        return load_real_transcripts()
    except pytest.skip.Exception:
        return []


@pytest.mark.parametrize("transcript", _real(), ids=lambda t: t.name)
def test_every_real_payload_is_read_in_its_captured_form(transcript: RealTranscript) -> None:
    """Each request, response and stream (as captured: SSE, JSON array, chunk
    lines) reads in its dialect, with no MUST but the ones listed as pending."""
    texts = [json.dumps(transcript.request_body)] if transcript.request_body is not None else []
    if transcript.kind == "stream" or transcript.status_code == 200:
        texts.append(transcript.response_text())
    musts: set[str] = set()
    for text in texts:
        report = lint_report(text, transcript.name, transcript.dialect)
        musts.update(v.code for v in report.violations if v.level == "MUST")
    expected = PENDING_VERDICTS.get(transcript.name, ("", ()))[1]
    assert sorted(musts) == sorted(expected)
