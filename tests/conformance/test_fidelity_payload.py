"""fidelity.arguments and fidelity.empty_content on one payload."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    must_codes,
    only,
    openai_request,
    openai_response,
    payload,
    payload_codes,
)
from toolwire.conformance import fidelity
from toolwire.harness.model import SSEEvent
from toolwire.harness.payloads import events_to_wire

ASK = {"role": "user", "content": "Weather in Paris?"}


def _arguments(target: Any) -> Any:
    return fidelity.PAYLOAD_CHECKS["fidelity.arguments"](target)


def _empty(target: Any) -> Any:
    return fidelity.PAYLOAD_CHECKS["fidelity.empty_content"](target)


def _openai_call(arguments: Any) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": arguments},
            }
        ],
    }


def _answered(arguments: Any) -> Any:
    return openai_request(
        [ASK, _openai_call(arguments), {"role": "tool", "tool_call_id": "call_1", "content": "18C"}]
    )


# --- fidelity.arguments ------------------------------------------------------


def test_double_encoded_openai_arguments() -> None:
    request = _answered(json.dumps('{"city": "Paris"}'))
    found = only(_arguments(request))
    assert found.path == "messages[1].tool_calls[0]"
    assert "double-encoded" in found.message
    assert payload_codes(request) == {"fidelity.arguments"}


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        ('{city: "Paris"', "not valid JSON"),
        ("", "empty string"),
        ("[1, 2]", "array"),
        ("null", "null"),
        ("42", "int"),
    ],
)
def test_openai_arguments_that_are_not_a_json_object(arguments: str, why: str) -> None:
    request = _answered(arguments)
    assert why in only(_arguments(request)).message
    assert payload_codes(request) == {"fidelity.arguments"}


def test_openai_arguments_sent_as_an_object_break_the_schema_too() -> None:
    request = _answered({"city": "Paris"})
    assert "not a JSON string" in only(_arguments(request)).message
    assert must_codes(request) == {"fidelity.arguments", "schema.request"}


def test_anthropic_input_left_as_a_string() -> None:
    request = anthropic_request(
        [
            ASK,
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": "{}"}
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}]},
        ]
    )
    found = only(_arguments(request))
    assert found.path == "messages[1].content[0]"
    assert "input is a string" in found.message
    # The schema also wants an object there (NAIVE_CONVERTERS.md B expects both).
    assert must_codes(request) == {"fidelity.arguments", "schema.request"}


def test_arguments_that_are_an_object_hold() -> None:
    assert _arguments(_answered('{"city": "Paris", "days": 3}')) == []
    assert _arguments(_answered("{}")) == []
    assert _arguments(openai_request([ASK])) is None


def test_a_response_whose_call_arguments_are_double_encoded() -> None:
    response = openai_response(_openai_call('"{}"'), "tool_calls")
    assert only(_arguments(response)).path == "choices[0].message.tool_calls[0]"


def _stream(*fragments: str) -> Any:
    chunks: list[dict[str, Any]] = [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "get_weather", "arguments": ""},
                            }
                        ],
                    },
                    "finish_reason": None,
                }
            ],
        }
    ]
    for fragment in fragments:
        delta = {"tool_calls": [{"index": 0, "function": {"arguments": fragment}}]}
        chunks.append({**chunks[0], "choices": [{"index": 0, "delta": delta}]})
    chunks.append(
        {**chunks[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    )
    events = [SSEEvent(json.dumps(chunk)) for chunk in chunks] + [SSEEvent("[DONE]")]
    return payload("openai-chat", "stream", events_to_wire(tuple(events)))


def test_a_stream_whose_fragments_join_to_a_json_string() -> None:
    stream = _stream('"{\\"city\\"', ': \\"Paris\\"}"')
    assert "double-encoded" in only(_arguments(stream)).message


def test_fragments_that_do_not_join_to_json_are_stream_partial_json_s() -> None:
    assert _arguments(_stream('{"city": ', '"Par')) == []
    assert _arguments(_stream('{"city": ', '"Paris"}')) == []


# --- fidelity.empty_content --------------------------------------------------

_CALL = {
    "role": "assistant",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}],
}


def test_an_empty_text_block_sent_to_anthropic() -> None:
    request = anthropic_request(
        [
            {
                "role": "user",
                "content": [{"type": "text", "text": ""}, {"type": "text", "text": "Hi"}],
            }
        ]
    )
    found = only(_empty(request))
    assert found.path == "messages[0].content[0]"
    # The schema's minLength says the same about the block.
    assert must_codes(request) == {"fidelity.empty_content", "schema.request"}


@pytest.mark.parametrize(
    ("message", "path"),
    [
        ({"role": "user", "content": ""}, "messages[1].content"),
        ({"role": "assistant", "content": []}, "messages[1].content"),
    ],
)
def test_a_message_with_empty_content_before_the_end(message: dict[str, Any], path: str) -> None:
    request = anthropic_request([ASK, message, {"role": "user", "content": "Still there?"}])
    assert only(_empty(request)).path == path
    assert must_codes(request) == {"fidelity.empty_content"}


def test_empty_text_inside_a_tool_result_and_in_the_system_prompt() -> None:
    request = anthropic_request(
        [
            ASK,
            _CALL,
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": [{"type": "text", "text": ""}],
                    }
                ],
            },
        ],
        system=[{"type": "text", "text": ""}],
    )
    paths = sorted(f.path for f in _empty(request))
    assert paths == ["messages[2].content[0].content[0]", "system[0]"]


def test_what_anthropic_accepts_is_not_empty_content() -> None:
    # A final assistant message may be empty (prefill); whitespace-only text
    # was accepted in a real recording.
    request = anthropic_request(
        [
            ASK,
            {"role": "assistant", "content": [{"type": "text", "text": " "}]},
            {"role": "user", "content": "Go on."},
            {"role": "assistant", "content": ""},
        ]
    )
    assert _empty(request) == []
    assert payload_codes(request) == set()


def test_empty_content_is_judged_only_in_anthropic_requests() -> None:
    # openai-chat documents content as optional beside tool_calls, and real
    # servers answer both null and "" there.
    assert _empty(openai_request([ASK, {"role": "assistant", "content": ""}])) is None
    assert _empty(openai_response({"content": ""})) is None
    # A response comes from the API; its empty text is judged once a client sends it back.
    assert _empty(anthropic_response([{"type": "text", "text": ""}])) is None
