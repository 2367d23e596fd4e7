"""The reference adapter between openai-responses and openai-chat / anthropic-messages."""

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
    TRUNCATED_RESPONSE,
)
from toolwire.conformance.readings.conventions import provider_bound
from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference import ConversionError, ReferenceAdapter
from toolwire.harness.adapters.reference.streams import events_in
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import ThinkingBlock

RESPONSES, CHAT, ANTHROPIC = "openai-responses", "openai-chat", "anthropic-messages"
ADAPTER = ReferenceAdapter()


def convert(payload: Any, kind: str, source: str, target: str) -> Any:
    return ADAPTER.convert(copy.deepcopy(payload), kind, source, target)  # type: ignore[arg-type]


def test_responses_request_to_chat_pairs_by_call_id_and_drops_encrypted_reasoning() -> None:
    chat = convert(REASONING_REPLAY_REQUEST, "request", RESPONSES, CHAT)
    roles = [m["role"] for m in chat["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool"]
    assert chat["messages"][0]["content"] == "You are a weather assistant."
    assistant = chat["messages"][2]
    assert "reasoning_content" not in assistant and assistant["content"] is None
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_paris", "call_rome"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"city": "Paris"}
    assert [m["tool_call_id"] for m in chat["messages"][3:]] == ["call_paris", "call_rome"]
    assert chat["tools"][0]["function"]["name"] == "get_weather"
    assert chat["reasoning_effort"] == "medium"
    assert "store" not in chat and "include" not in chat


def test_chat_request_to_responses_writes_items_without_invented_ids() -> None:
    chat = convert(TOOL_CALL_REQUEST, "request", RESPONSES, CHAT)
    back = convert(chat, "request", CHAT, RESPONSES)
    # instructions "" says nothing and stays behind: the user message, then the items.
    kinds = [item.get("type", "message") for item in back["input"]]
    assert kinds == ["message", "function_call", "function_call_output"]
    call = back["input"][1]
    assert "id" not in call and call["call_id"] == "call_61cRAI5gleGxCN89umufHn2a"
    assert back["tools"][0] == {
        "type": "function",
        "name": "get_capital",
        "description": "",
        "parameters": TOOL_CALL_REQUEST["tools"][0]["parameters"],
        "strict": True,
    }
    conversation = get_codec(RESPONSES).parse_request(back)
    assert conversation.turns[2].tool_results[0].call_id == call["call_id"]


def test_anthropic_text_after_a_call_keeps_its_place_in_responses() -> None:
    request = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "toolu_1", "name": "w", "input": {"c": "Oslo"}},
                    {"type": "text", "text": "One moment."},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "5C"}],
            },
        ],
    }
    out = convert(request, "request", ANTHROPIC, RESPONSES)
    assistant_items = out["input"][1:4]
    assert [i["type"] for i in assistant_items] == ["message", "function_call", "message"]
    assert [assistant_items[0]["content"], assistant_items[2]["content"]] == [
        "Checking.",
        "One moment.",
    ]
    back = convert(out, "request", RESPONSES, ANTHROPIC)
    assert [b["type"] for b in back["messages"][1]["content"]] == ["text", "tool_use", "text"]


def test_reasoning_summary_travels_in_responses_not_in_requests() -> None:
    anthropic = convert(REASONING_RESPONSE, "response", RESPONSES, ANTHROPIC)
    assert [b["type"] for b in anthropic["content"]] == ["thinking", "tool_use", "tool_use"]
    assert anthropic["content"][0]["thinking"] == "Look up the weather in both cities."
    assert anthropic["stop_reason"] == "tool_use"
    back = convert(anthropic, "response", ANTHROPIC, RESPONSES)
    assert [i["type"] for i in back["output"]] == ["reasoning", "function_call", "function_call"]
    assert "encrypted_content" not in back["output"][0]
    assert back["status"] == "completed"


@pytest.mark.parametrize(
    ("response", "finish"),
    [(TEXT_RESPONSE, "stop"), (TRUNCATED_RESPONSE, "length"), (REASONING_RESPONSE, "tool_calls")],
)
def test_status_becomes_finish_reason_and_back(response: dict[str, Any], finish: str) -> None:
    chat = convert(response, "response", RESPONSES, CHAT)
    assert chat["choices"][0]["finish_reason"] == finish
    back = convert(chat, "response", CHAT, RESPONSES)
    assert (back["status"], back["incomplete_details"]) == (
        response["status"],
        response["incomplete_details"],
    )


def test_streams_convert_through_their_reassembled_response() -> None:
    codec = get_codec(RESPONSES)
    events = [
        {"event": e.event, "data": json.loads(e.data)}
        for e in codec.render_stream(codec.parse_response(REASONING_RESPONSE))
    ]
    chat = convert(events, "stream", RESPONSES, CHAT)
    anthropic = convert(events, "stream", RESPONSES, ANTHROPIC)
    again = convert(anthropic, "stream", ANTHROPIC, RESPONSES)
    transcript = codec.parse_stream(events_in(again))
    assert transcript.issues == ()
    assert [c.id for c in transcript.response.message.tool_calls] == ["call_paris", "call_rome"]
    assert chat[-1]["data"] == "[DONE]"


def test_server_state_and_stop_sequences_are_declined() -> None:
    with pytest.raises(UnsupportedConversion, match="previous_response_id"):
        convert({**TOOL_CALL_REQUEST, "previous_response_id": "resp_1"}, "request", RESPONSES, CHAT)
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "stop": ["END"]}
    with pytest.raises(UnsupportedConversion, match="stop sequences"):
        convert(chat, "request", CHAT, RESPONSES)


def test_a_failed_response_is_refused_not_guessed() -> None:
    with pytest.raises(ConversionError, match="failed"):
        convert({**TEXT_RESPONSE, "status": "failed"}, "response", RESPONSES, CHAT)


def test_provider_bound_reasoning() -> None:
    assert provider_bound(ThinkingBlock("reasoning_item", encrypted_content="gAAA"))
    assert not provider_bound(ThinkingBlock("reasoning_item", text="summary only"))
    assert provider_bound(ThinkingBlock("thinking", text="t", signature="sig"))
    assert not provider_bound(ThinkingBlock("reasoning_content", text="t"))


@pytest.mark.parametrize(
    ("source", "tools", "expected"),
    [
        (CHAT, [{"type": "function", "function": {"name": "f", "parameters": {}}}], False),
        (CHAT, [{"type": "function", "function": {"name": "f", "strict": False}}], False),
        (CHAT, [{"type": "function", "function": {"name": "f", "strict": True}}], True),
        (ANTHROPIC, [{"name": "f", "input_schema": {"type": "object"}}], False),
    ],
)
def test_a_tool_that_was_not_strict_says_strict_false_in_responses(
    source: str, tools: list[Any], expected: bool
) -> None:
    # A Responses tool without strict is strict (its optional fields made
    # required): https://platform.openai.com/docs/guides/function-calling.
    messages = [{"role": "user", "content": "hi"}]
    request: dict[str, Any] = {"model": "m", "messages": messages, "tools": tools}
    if source == ANTHROPIC:
        request["max_tokens"] = 64
    out = convert(request, "request", source, RESPONSES)
    assert out["tools"][0]["strict"] is expected
