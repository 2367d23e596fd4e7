"""fidelity.stop_reason_content (a response's stop reason against its content)
and fidelity.empty_text_added (an empty text block a converter invents)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.fidelity.empty_text_added import check_empty_text_added
from toolwire.conformance.fidelity.stop_reason_content import check_stop_reason_content
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import SSEEvent

TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}
SERVER_TOOL_USE = {
    "type": "server_tool_use",
    "id": "srvtoolu_1",
    "name": "web_search",
    "input": {"query": "Oslo weather"},
}
TEXT = {"type": "text", "text": "Checking."}
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
}


def anthropic(stop: str, *content: dict[str, Any]) -> PayloadUnderTest:
    raw = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": list(content),
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return _payload("anthropic-messages", raw)


def openai(finish: str, calls: list[dict[str, Any]] | None, dialect: str = "openai-chat") -> Any:
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else "Hi."}
    if calls is not None:
        message["tool_calls"] = calls
    raw = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    return _payload(dialect, raw)


def _payload(dialect: str, raw: dict[str, Any]) -> PayloadUnderTest:
    parsed = get_codec(dialect).parse_response(raw)
    return PayloadUnderTest(dialect, "response", DEFAULT_PROFILE[dialect], raw, parsed)


def codes(put: PayloadUnderTest) -> list[str] | None:
    found = check_stop_reason_content(put)
    return None if found is None else [f.code for f in found]


@pytest.mark.parametrize(
    "put",
    [
        anthropic("tool_use", TEXT, TOOL_USE),
        anthropic("tool_use", SERVER_TOOL_USE),  # a server tool's call counts
        anthropic("end_turn", TEXT),
        # The server ran its own tools: the real API ends with end_turn.
        anthropic("end_turn", TEXT, SERVER_TOOL_USE),
        openai("tool_calls", [CALL]),
        openai("tool_calls", [CALL], dialect="deepseek-chat"),
    ],
)
def test_a_stop_reason_that_agrees_with_the_content_holds(put: PayloadUnderTest) -> None:
    assert codes(put) == []


@pytest.mark.parametrize(
    "put",
    [
        anthropic("tool_use", TEXT),
        anthropic("end_turn", TEXT, TOOL_USE),
        openai("tool_calls", []),
        openai("tool_calls", None),
    ],
)
def test_a_stop_reason_that_contradicts_the_content_is_found(put: PayloadUnderTest) -> None:
    assert codes(put) == ["fidelity.stop_reason_content"]


@pytest.mark.parametrize(
    "put",
    [
        openai("stop", [CALL]),  # OpenAI's own answer to a forced tool_choice
        openai("stop", None),
        openai("length", [CALL]),
        anthropic("max_tokens", TEXT, TOOL_USE),
        anthropic("pause_turn", SERVER_TOOL_USE),
        anthropic("refusal", TEXT),
    ],
)
def test_stop_reasons_that_say_nothing_about_calls_are_not_judged(put: PayloadUnderTest) -> None:
    assert codes(put) is None


def test_requests_are_out_of_scope() -> None:
    raw = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    parsed = get_codec("openai-chat").parse_request(raw)
    put = PayloadUnderTest("openai-chat", "request", "openai", raw, parsed)
    assert check_stop_reason_content(put) is None


# --- fidelity.empty_text_added -----------------------------------------------------


def empty_text_added(source: PayloadUnderTest, output: PayloadUnderTest) -> list[str] | None:
    found = check_empty_text_added(source, output)
    return None if found is None else [f.code for f in found]


def openai_answer(content: str | None) -> PayloadUnderTest:
    put: PayloadUnderTest = openai("tool_calls", [CALL])
    raw = put.raw
    raw["choices"][0]["message"]["content"] = content
    return _payload("openai-chat", raw)


EMPTY = {"type": "text", "text": ""}


@pytest.mark.parametrize("content", ["", None])
def test_an_empty_text_block_made_from_no_content_is_found(content: str | None) -> None:
    output = anthropic("tool_use", EMPTY, TOOL_USE)
    assert empty_text_added(openai_answer(content), output) == ["fidelity.empty_text_added"]


@pytest.mark.parametrize(
    ("source", "output"),
    [
        # Leaving the text out, the reference's way.
        (openai_answer(""), anthropic("tool_use", TOOL_USE)),
        # Whitespace is text, and Anthropic accepts it.
        (openai_answer(" "), anthropic("tool_use", {"type": "text", "text": " "}, TOOL_USE)),
        # A pass-through proxy forwarding the empty block the API itself returned.
        (anthropic("refusal", EMPTY), anthropic("refusal", EMPTY)),
    ],
)
def test_correct_forms_hold(source: PayloadUnderTest, output: PayloadUnderTest) -> None:
    assert empty_text_added(source, output) == []


def test_an_empty_block_in_a_streamed_output_is_found() -> None:
    events = [
        {"type": "message_start", "message": {**_message(), "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": EMPTY},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {**TOOL_USE, "input": {}}},
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"city": "Oslo"}'},
        },
        {"type": "content_block_stop", "index": 1},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]
    sse = tuple(SSEEvent(json.dumps(e), event=e["type"]) for e in events)
    parsed = get_codec("anthropic-messages").parse_stream(sse)
    output = PayloadUnderTest("anthropic-messages", "stream", "anthropic", sse, parsed)
    assert empty_text_added(openai_answer(""), output) == ["fidelity.empty_text_added"]


def test_outputs_in_other_dialects_are_not_judged() -> None:
    assert empty_text_added(anthropic("tool_use", EMPTY, TOOL_USE), openai_answer("")) is None


def _message() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
