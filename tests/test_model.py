from __future__ import annotations

import dataclasses

import pytest

from toolwire.harness.model import (
    Choice,
    Response,
    StopReason,
    TextBlock,
    ToolCall,
    ToolResult,
    Turn,
)


def test_model_objects_are_frozen() -> None:
    block = TextBlock("hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.text = "changed"  # type: ignore[misc]


def test_turn_helpers_select_blocks_in_wire_order() -> None:
    call_a = ToolCall(id="call_a", name="f", arguments={})
    call_b = ToolCall(id="call_b", name="g", arguments={"x": 1})
    result = ToolResult(call_id="call_a", content=(TextBlock("ok"),))
    turn = Turn(role="assistant", blocks=(TextBlock("a"), call_a, TextBlock("b"), call_b, result))
    assert turn.tool_calls == (call_a, call_b)
    assert turn.tool_results == (result,)
    assert turn.text == "ab"


def test_response_exposes_its_first_choice() -> None:
    message = Turn(role="assistant", blocks=(TextBlock("done"),))
    stop = StopReason(raw="end_turn", canonical="end_turn")
    response = Response(dialect="anthropic-messages", choices=(Choice(0, message, stop),))
    assert response.message is message
    assert response.stop_reason is stop
