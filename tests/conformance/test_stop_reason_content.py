"""fidelity.stop_reason_content: a response's stop reason against its content."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.context import PayloadUnderTest
from conformance.fidelity_response import check_stop_reason_content
from conformance.profiles import DEFAULT_PROFILE
from harness.dialects import get_codec

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
