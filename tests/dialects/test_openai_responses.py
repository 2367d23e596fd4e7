"""The openai-responses codec: requests, Response objects and typed-event streams."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.dialects.responses_fixtures import (
    REASONING_REPLAY_REQUEST,
    REASONING_RESPONSE,
    TEXT_RESPONSE,
    TOOL_CALL_REQUEST,
    TOOL_CALL_RESPONSE,
    TRUNCATED_RESPONSE,
)
from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    OPENAI_RESPONSES,
    Choice,
    Response,
    SSEEvent,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)
from toolwire.harness.schemas import validate_payload

CODEC = get_codec(OPENAI_RESPONSES)
RESPONSES = [TOOL_CALL_RESPONSE, TEXT_RESPONSE, REASONING_RESPONSE, TRUNCATED_RESPONSE]


@pytest.mark.parametrize("payload", [TOOL_CALL_REQUEST, REASONING_REPLAY_REQUEST])
def test_request_round_trips(payload: dict[str, Any]) -> None:
    assert CODEC.render_request(CODEC.parse_request(copy.deepcopy(payload))) == payload
    assert validate_payload(OPENAI_RESPONSES, "request", payload) == []


@pytest.mark.parametrize("payload", RESPONSES)
def test_response_round_trips(payload: dict[str, Any]) -> None:
    assert CODEC.render_response(CODEC.parse_response(copy.deepcopy(payload))) == payload
    assert validate_payload(OPENAI_RESPONSES, "response", payload) == []


def test_items_group_into_turns_with_call_ids() -> None:
    conversation = CODEC.parse_request(REASONING_REPLAY_REQUEST)
    assert [t.role for t in conversation.turns] == ["user", "assistant", "tool", "tool"]
    assistant = conversation.turns[1]
    thinking, first, second = assistant.blocks
    assert isinstance(thinking, ThinkingBlock) and thinking.origin == "reasoning_item"
    assert thinking.encrypted_content == "gAAAAABo-stand-in-encrypted-reasoning=="
    assert thinking.item_id == "rs_0a1b2c3d"
    assert thinking.text == "Look up the weather in both cities."
    assert isinstance(first, ToolCall) and isinstance(second, ToolCall)
    assert (first.id, first.item_id, first.arguments) == ("call_paris", "fc_01", {"city": "Paris"})
    assert first.raw_arguments == '{"city": "Paris"}'
    result = conversation.turns[2].blocks[0]
    assert isinstance(result, ToolResult) and result.call_id == "call_paris"
    assert conversation.system == (TextBlock("You are a weather assistant."),)
    assert conversation.tools is not None and conversation.tools[0].name == "get_weather"
    assert conversation.extra["include"] == ["reasoning.encrypted_content"]


def test_bare_string_input_round_trips() -> None:
    payload = {"model": "gpt-4.1", "input": "Hello"}
    conversation = CODEC.parse_request(payload)
    assert conversation.turns[0].role == "user" and conversation.turns[0].text == "Hello"
    assert CODEC.render_request(conversation) == payload


@pytest.mark.parametrize(
    ("status", "details", "calls", "canonical"),
    [
        ("completed", None, False, "end_turn"),
        ("completed", None, True, "tool_use"),
        ("incomplete", {"reason": "max_output_tokens"}, False, "max_tokens"),
        ("incomplete", {"reason": "content_filter"}, False, "content_filter"),
        ("failed", None, False, "unknown"),
    ],
)
def test_stop_reason_from_status(
    status: str, details: dict[str, str] | None, calls: bool, canonical: str
) -> None:
    source = TOOL_CALL_RESPONSE if calls else TEXT_RESPONSE
    payload = {**source, "status": status, "incomplete_details": details}
    assert CODEC.parse_response(payload).stop_reason.canonical == canonical


def test_code_built_response_gets_the_natural_form() -> None:
    message = Turn(
        "assistant",
        (TextBlock("Checking."), ToolCall("call_1", "get_weather", {"city": "Oslo"})),
    )
    response = Response(
        OPENAI_RESPONSES, (Choice(0, message, StopReason("tool_calls", "tool_use")),), id="resp_1"
    )
    body = CODEC.render_response(response)
    assert body["status"] == "completed" and body["object"] == "response"
    message_item, call_item = body["output"]
    assert message_item == {
        "id": "msg_0",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Checking.", "annotations": []}],
    }
    assert call_item["call_id"] == "call_1" and call_item["id"] == "fc_1"
    assert json.loads(call_item["arguments"]) == {"city": "Oslo"}
    assert validate_payload(OPENAI_RESPONSES, "response", body) == []
    truncated = Response(OPENAI_RESPONSES, (Choice(0, message, StopReason(None, "max_tokens")),))
    body = CODEC.render_response(truncated)
    assert (body["status"], body["incomplete_details"]) == (
        "incomplete",
        {"reason": "max_output_tokens"},
    )


@pytest.mark.parametrize("payload", RESPONSES)
def test_rendered_stream_reassembles_without_issues(payload: dict[str, Any]) -> None:
    events = CODEC.render_stream(CODEC.parse_response(payload))
    numbers = [json.loads(e.data)["sequence_number"] for e in events]
    assert numbers == list(range(len(events)))
    assert all(e.event == json.loads(e.data)["type"] for e in events)
    for event in events:
        assert validate_payload(OPENAI_RESPONSES, "stream", json.loads(event.data)) == []
    transcript = CODEC.parse_stream(events)
    assert transcript.issues == ()
    assert CODEC.render_response(transcript.response) == payload


def _events(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(e.data) for e in CODEC.render_stream(CODEC.parse_response(payload))]


def _issues(datas: list[dict[str, Any]]) -> list[str]:
    events = [SSEEvent(json.dumps(d), d.get("type")) for d in datas]
    return [issue.code for issue in CODEC.parse_stream(events).issues]


def _first(datas: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(d for d in datas if d["type"] == kind)


def test_stream_grammar_problems_are_noted() -> None:
    datas = _events(REASONING_RESPONSE)
    swapped = copy.deepcopy(datas)
    swapped[3]["sequence_number"] = 1
    assert "sequence_not_increasing" in _issues(swapped)

    wrong_delta = copy.deepcopy(datas)
    _first(wrong_delta, "response.function_call_arguments.delta")["delta"] = '{"city": "Pa'
    assert "arguments_done_mismatch" in _issues(wrong_delta)

    stray = copy.deepcopy(datas)
    _first(stray, "response.function_call_arguments.delta")["output_index"] = 9
    assert "unknown_output_index" in _issues(stray)

    other_item = copy.deepcopy(datas)
    _first(other_item, "response.function_call_arguments.delta")["item_id"] = "fc_other"
    assert "item_id_mismatch" in _issues(other_item)

    assert "missing_terminal" in _issues(datas[:-1])
    assert "missing_created" in _issues(datas[1:])
    assert _issues([*datas, datas[-1]]).count("after_terminal") == 1


def test_text_done_must_match_its_deltas() -> None:
    datas = _events(TEXT_RESPONSE)
    _first(datas, "response.output_text.delta")["delta"] = "The capital"
    codes = _issues(datas)
    assert "text_done_mismatch" in codes and "item_done_mismatch" in codes


def test_final_output_must_match_the_finished_items() -> None:
    datas = _events(REASONING_RESPONSE)
    datas[-1]["response"]["output"] = datas[-1]["response"]["output"][:1]
    assert "output_mismatch" in _issues(datas)


def test_stream_without_output_in_the_terminal_event_uses_finished_items() -> None:
    datas = _events(TOOL_CALL_RESPONSE)
    del datas[-1]["response"]["output"]
    events = [SSEEvent(json.dumps(d), d["type"]) for d in datas]
    transcript = CODEC.parse_stream(events)
    assert transcript.issues == ()
    assert transcript.response.message.tool_calls[0].arguments == {"country": "PotatoLand"}


def test_error_event_excuses_the_missing_terminal_event() -> None:
    datas = _events(TEXT_RESPONSE)[:3]
    datas.append({"type": "error", "sequence_number": 3, "message": "server overloaded"})
    assert _issues(datas) == ["error_event"]


@pytest.mark.parametrize(
    ("payload", "where"),
    [
        ({"input": 3}, "input"),
        ({"input": [{"type": "message", "content": "x"}]}, "input[0].role"),
        ({"input": [7]}, "input[0]"),
        ({"tools": [{"name": "x"}]}, "tools[0].type"),
    ],
)
def test_shape_errors_name_the_path(payload: dict[str, Any], where: str) -> None:
    with pytest.raises(WireFormatError) as raised:
        CODEC.parse_request(payload)
    assert where in str(raised.value)


def test_error_body_is_not_a_response() -> None:
    with pytest.raises(WireFormatError, match="API error body"):
        CODEC.parse_response({"error": {"message": "Invalid 'input'", "type": "invalid_request"}})


def test_text_delta_needs_its_content_part() -> None:
    datas = [d for d in _events(TEXT_RESPONSE) if d["type"] != "response.content_part.added"]
    assert "delta_without_part" in _issues(datas)


def test_item_position_points_at_the_wire_item() -> None:
    from toolwire.harness.dialects.openai_responses.layout import item_position

    turns = CODEC.parse_request(REASONING_REPLAY_REQUEST).turns
    # user message, reasoning, call, call, output, output
    assert item_position(turns, 0, 0) == (0, 0)
    assert [item_position(turns, 1, b) for b in range(3)] == [(1, None), (2, None), (3, None)]
    assert item_position(turns, 3, 0) == (5, None)
    text_turns = CODEC.parse_request(TOOL_CALL_REQUEST).turns
    assert item_position(text_turns, 1, 1) == (2, None)  # the call after the empty message
