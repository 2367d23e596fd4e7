"""schema.request and schema.response: the raw payload against its dialect's schema."""

from __future__ import annotations

import json
from typing import Any

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    must_codes,
    only,
    openai_request,
    openai_response,
    payload,
)
from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.schema import validation
from toolwire.harness.model import SSEEvent

ASK = {"role": "user", "content": "Hi"}


def _request(target: Any) -> Any:
    return validation.PAYLOAD_CHECKS["schema.request"](target)


def _response(target: Any) -> Any:
    return validation.PAYLOAD_CHECKS["schema.response"](target)


def test_a_valid_request_and_response_hold() -> None:
    assert _request(anthropic_request([ASK])) == []
    assert _request(openai_request([ASK])) == []
    assert _response(anthropic_response([{"type": "text", "text": "Hello"}])) == []
    assert _response(openai_response({"content": "Hello"})) == []


def test_each_rule_judges_its_own_kind_only() -> None:
    assert _response(anthropic_request([ASK])) is None
    assert _request(openai_response({"content": "Hello"})) is None


def test_a_request_without_max_tokens() -> None:
    # NAIVE_CONVERTERS.md A sets no max_tokens.
    raw = {"model": "claude-sonnet-4-5", "messages": [ASK]}
    request = payload("anthropic-messages", "request", raw)
    found = only(_request(request))
    assert found.path == "max_tokens"
    assert "missing required property 'max_tokens'" in found.message
    assert "#/" in found.message  # the schema keyword path
    assert must_codes(request) == {"schema.request"}


def test_a_tool_message_without_its_call_id() -> None:
    messages: list[Any] = [
        ASK,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "content": "ok"},
    ]
    found = _request(openai_request(messages))
    assert [f.path for f in found] == ["messages[2].tool_call_id"]


def test_a_response_with_an_undocumented_stop_reason() -> None:
    response = anthropic_response([{"type": "text", "text": "Hi"}], "finished")
    found = only(_response(response))
    assert found.path == "stop_reason"
    assert must_codes(response) == {"schema.response"}


def _chunk(**delta: Any) -> str:
    return json.dumps(
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-4.1",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        }
    )


def _stream(*data: str) -> PayloadUnderTest:
    wire = [{"event": None, "data": item} for item in data]
    return payload("openai-chat", "stream", wire)


def test_every_stream_event_is_validated_and_done_is_not_an_event() -> None:
    good = _stream(_chunk(role="assistant", content="Hi"), _chunk(content="!"), "[DONE]")
    assert _response(good) == []
    bad_fragment = json.dumps(
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-4.1",
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"function": {"arguments": "{}"}}]},
                    "finish_reason": None,
                }
            ],
        }
    )
    bad = _stream(_chunk(role="assistant"), bad_fragment, "[DONE]")
    found = only(_response(bad))
    assert found.path == "events[1].data.choices[0].delta.tool_calls[0].index"


def test_an_event_whose_data_is_not_json() -> None:
    stream = _stream(_chunk(role="assistant", content="Hi"), "{not json", "[DONE]")
    found = only(_response(stream))
    assert found.path == "events[1].data"
    assert "not JSON" in found.message


def test_stream_events_are_read_from_raw_text_when_not_parsed() -> None:
    events = validation.stream_events(
        PayloadUnderTest(
            "openai-chat",
            "stream",
            "openai",
            f"data: {_chunk(content='x')}\n\ndata: [DONE]\n\n",
            openai_request([ASK]).parsed,
        )
    )
    assert [e.data for e in events][-1] == "[DONE]"
    assert validation.stream_events(
        PayloadUnderTest(
            "openai-chat",
            "stream",
            "openai",
            [{"event": "x", "data": {"a": 1}}, SSEEvent("[DONE]")],
            openai_request([ASK]).parsed,
        )
    ) == [SSEEvent('{"a": 1}', "x"), SSEEvent("[DONE]")]
