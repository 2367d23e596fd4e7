"""anthropic-messages responses (hand-written payloads)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    CanonicalStop,
    Choice,
    OpaqueBlock,
    Response,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
    Usage,
)

CODEC = get_codec(ANTHROPIC_MESSAGES)


def message(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "thinking", "thinking": "Need data.", "signature": "sig"},
            {"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": [1, 2.5, "é"]}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 34, "service_tier": "standard"},
    }
    body.update(overrides)
    return body


def test_parses_into_one_choice_and_round_trips() -> None:
    body = message(container={"id": "c1"})
    response = CODEC.parse_response(body)
    assert response.dialect == ANTHROPIC_MESSAGES
    assert (response.id, response.model) == ("msg_01", "claude-sonnet-4-5")
    assert len(response.choices) == 1
    choice = response.choices[0]
    assert choice.index == 0
    assert choice.message.role == "assistant"
    assert choice.message.blocks == (
        ThinkingBlock(origin="thinking", text="Need data.", signature="sig"),
        TextBlock("Looking."),
        ToolCall(id="toolu_1", name="f", arguments={"x": [1, 2.5, "é"]}),
    )
    assert choice.stop_reason == StopReason(raw="tool_use", canonical="tool_use")
    assert response.usage == Usage(input_tokens=12, output_tokens=34, raw=body["usage"])
    assert response.extra == {"type": "message", "stop_sequence": None, "container": {"id": "c1"}}
    assert CODEC.render_response(response) == body


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("end_turn", "end_turn"),
        ("tool_use", "tool_use"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("pause_turn", "pause_turn"),
        ("refusal", "refusal"),
        ("model_context_window_exceeded", "max_tokens"),
        ("something_new", "unknown"),
        (None, "unknown"),
    ],
)
def test_stop_reasons(raw: str | None, canonical: CanonicalStop) -> None:
    body = message(stop_reason=raw)
    response = CODEC.parse_response(body)
    assert response.stop_reason == StopReason(raw=raw, canonical=canonical)
    assert CODEC.render_response(response) == body


def test_server_tool_blocks_stay_opaque() -> None:
    content: list[dict[str, Any]] = [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"q": "x"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        {"type": "text", "text": "Found.", "citations": [{"type": "web_search_result_location"}]},
    ]
    response = CODEC.parse_response(message(content=content, stop_reason="end_turn"))
    assert response.message.blocks[:2] == (
        OpaqueBlock(type="server_tool_use", raw=content[0]),
        OpaqueBlock(type="web_search_tool_result", raw=content[1]),
    )
    assert response.message.tool_calls == ()


def test_error_body_raises_with_its_message() -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    with pytest.raises(WireFormatError, match="overloaded_error: Overloaded"):
        CODEC.parse_response(body)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ([], ""),
        (message(content={"type": "text"}), "content"),
        (message(content=[{"text": "no type"}]), "content[0]"),
        (message(content=[{"type": "text", "text": None}]), "content[0].text"),
        (message(role=None), "role"),
        (message(stop_reason=1), "stop_reason"),
        (message(usage=[1]), "usage"),
        (message(usage={"input_tokens": "12"}), "usage.input_tokens"),
    ],
)
def test_shape_errors(body: Any, path: str) -> None:
    with pytest.raises(WireFormatError) as caught:
        CODEC.parse_response(body)
    assert caught.value.path == path


def test_renders_a_response_built_by_code() -> None:
    response = Response(
        dialect=ANTHROPIC_MESSAGES,
        id="msg_x",
        model="m",
        choices=(
            Choice(
                index=0,
                message=Turn(role="assistant", blocks=(TextBlock("hi"),)),
                stop_reason=StopReason(raw="stop", canonical="end_turn"),  # from openai-chat
            ),
        ),
        usage=Usage(input_tokens=1, output_tokens=2),
    )
    assert CODEC.render_response(response) == {
        "id": "msg_x",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 2},
    }


@pytest.mark.parametrize(
    ("stop", "wire"),
    [
        (StopReason(raw="length", canonical="max_tokens"), "max_tokens"),
        (StopReason(raw="tool_calls", canonical="tool_use"), "tool_use"),
        (StopReason(raw="content_filter", canonical="content_filter"), "refusal"),
        (StopReason(raw="weird", canonical="unknown"), "weird"),
        (StopReason(raw=None, canonical="end_turn"), "end_turn"),
    ],
)
def test_stop_reasons_from_other_dialects(stop: StopReason, wire: str) -> None:
    response = Response(
        dialect=ANTHROPIC_MESSAGES,
        choices=(Choice(index=0, message=Turn(role="assistant", blocks=()), stop_reason=stop),),
    )
    assert CODEC.render_response(response)["stop_reason"] == wire
