"""reasoning.altered: a Responses reasoning item's summary parts joined with
the separators fidelity.text accepts are the same reasoning (LiteLLM's
Responses bridge joins them with blank lines); a changed word is not."""

from __future__ import annotations

from typing import Any

from toolwire.conformance.context import ConversionUnderTest
from toolwire.conformance.reasoning import CONVERSION_CHECKS
from toolwire.harness.payloads import parse_payload

PARTS = ["**Planning**\n\nI need the weather.", "**Calling**\n\nI call get_weather."]


def _responses() -> Any:
    body = {
        "model": "gpt-5-mini",
        "input": [
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": t} for t in PARTS],
            },
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": "{}",
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "3°C"},
        ],
    }
    return parse_payload("openai-responses", "request", body, "openai-responses")


def _chat(reasoning: str) -> Any:
    body = {
        "model": "gpt-5-mini",
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": reasoning,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "3°C"},
        ],
    }
    return parse_payload("openai-chat", "request", body, "openai")


def _check(reasoning: str) -> Any:
    return CONVERSION_CHECKS["reasoning.altered"](
        ConversionUnderTest(_responses(), _chat(reasoning))
    )


def test_summary_parts_joined_by_blank_lines_are_the_same_reasoning() -> None:
    assert _check("\n\n".join(PARTS)) == []
    assert _check("\n".join(PARTS)) == []
    assert _check("".join(PARTS)) == []


def test_a_changed_word_is_altered() -> None:
    found = _check("\n\n".join(PARTS).replace("Oslo", "Bergen").replace("weather", "forecast"))
    assert [f.code for f in found or []] == ["reasoning.altered"]
