"""Thinking <-> reasoning_content through the reference adapter
(docs/conventions.md, "Thinking in deepseek-chat"; WIRE.md 1.3)."""

from __future__ import annotations

import json
from typing import Any

from tests.adapters.test_reference_conventions import (
    ADAPTER,
    anthropic_body,
    call,
    from_anthropic,
    to_anthropic,
    tool_use,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, OPENAI_CHAT


def _thinking(text: str, signature: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": text, "signature": signature}


def _thinking_conversation() -> dict[str, Any]:
    return anthropic_body(
        [
            {"role": "user", "content": "Check two things"},
            {
                "role": "assistant",
                "content": [
                    _thinking("First A. ", "SIG-ONE"),
                    {"type": "redacted_thinking", "data": "REDACTED-DATA"},
                    _thinking("Then B.", "SIG-TWO"),
                    {"type": "text", "text": "Checking."},
                    tool_use("toolu_1", "check", {"what": "A"}),
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "redacted_thinking", "data": "MORE-REDACTED"},
                    tool_use("toolu_2", "check", {"what": "B"}),
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": "ok"}],
            },
            {"role": "assistant", "content": [tool_use("toolu_3", "check", {"what": "C"})]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_3", "content": "ok"}],
            },
            {"role": "assistant", "content": "Both fine."},
            {"role": "user", "content": "Thanks! Anything else?"},
            {"role": "assistant", "content": "No."},
            {"role": "user", "content": "Bye"},
        ],
        thinking={"type": "enabled", "budget_tokens": 2048},
    )


def _ok(call_id: str) -> dict[str, Any]:
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "ok"}],
    }


def test_thinking_becomes_reasoning_content_without_signatures_for_deepseek() -> None:
    out = from_anthropic(_thinking_conversation(), DEEPSEEK_CHAT)
    assistants = [m for m in out["messages"] if m["role"] == "assistant"]
    # Texts joined with no separator; signatures and redacted data dropped.
    assert assistants[0]["reasoning_content"] == "First A. Then B."
    # A turn whose only reasoning was redacted, and the other turns of the
    # tool-call stretch, carry an empty reasoning_content (DeepSeek needs it).
    assert [a.get("reasoning_content") for a in assistants] == [
        "First A. Then B.",
        "",
        "",
        "",
        None,
    ]
    dumped = json.dumps(out)
    assert "SIG-ONE" not in dumped and "REDACTED" not in dumped
    assert out["thinking"] == {"type": "enabled"}


def test_openai_chat_requests_carry_no_reasoning() -> None:
    out = from_anthropic(_thinking_conversation(), OPENAI_CHAT)
    assert not any("reasoning_content" in m for m in out["messages"])
    assert "thinking" not in out


def test_deepseek_reasoning_becomes_a_first_thinking_block_with_an_empty_signature() -> None:
    body = {
        "model": "deepseek-chat",
        "messages": [
            {"role": "user", "content": "Go"},
            {
                "role": "assistant",
                "content": "Calling.",
                "reasoning_content": "I should call run.",
                "tool_calls": [call("call_00_x", "run", {})],
            },
            {"role": "tool", "tool_call_id": "call_00_x", "content": "done"},
            {"role": "assistant", "content": "Done.", "reasoning_content": ""},
        ],
        "thinking": {"type": "enabled"},
    }
    out = to_anthropic(body, DEEPSEEK_CHAT)
    assert out["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "I should call run.", "signature": ""},
        {"type": "text", "text": "Calling."},
        tool_use("call_00_x", "run", {}),
    ]
    # Empty reasoning carries nothing: no empty thinking block.
    assert out["messages"][3]["content"] == [{"type": "text", "text": "Done."}]
    assert out["thinking"] == {"type": "enabled", "budget_tokens": 2048}


def test_responses_carry_reasoning_content_to_both_chat_dialects() -> None:
    response = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [_thinking("Think.", "SIG"), {"type": "text", "text": "Answer."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    for target in (OPENAI_CHAT, DEEPSEEK_CHAT):
        out = ADAPTER.convert(response, "response", ANTHROPIC_MESSAGES, target)
        message = out["choices"][0]["message"]
        assert (message["reasoning_content"], message["content"]) == ("Think.", "Answer.")
