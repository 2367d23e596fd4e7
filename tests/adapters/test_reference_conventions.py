"""Hand-written cases for each convention of docs/conventions.md and WIRE.md
that the reference adapter follows: results, errors, system prompts, empty
text, max_tokens and thinking."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.adapters.reference.params import DEFAULT_MAX_TOKENS
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, OPENAI_CHAT

ADAPTER = ReferenceAdapter()


def to_anthropic(body: dict[str, Any], source: str = OPENAI_CHAT) -> dict[str, Any]:
    result: dict[str, Any] = ADAPTER.convert(body, "request", source, ANTHROPIC_MESSAGES)
    return result


def from_anthropic(body: dict[str, Any], target: str = OPENAI_CHAT) -> dict[str, Any]:
    result: dict[str, Any] = ADAPTER.convert(body, "request", ANTHROPIC_MESSAGES, target)
    return result


def call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def tool_use(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def anthropic_body(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages, **extra}


def openai_body(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-4.1", "messages": messages, **extra}


# --- tool results ------------------------------------------------------------------


def test_parallel_results_become_one_user_message_results_first_then_text() -> None:
    out = to_anthropic(
        openai_body(
            [
                {"role": "user", "content": "Weather in Paris and Rome?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        call("call_1", "get_weather", {"city": "Paris"}),
                        call("call_2", "get_weather", {"city": "Rome"}),
                    ],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
                {"role": "tool", "tool_call_id": "call_2", "content": "25C"},
                {"role": "user", "content": "And tomorrow?"},
            ]
        )
    )
    assert out["messages"] == [
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": [
                tool_use("call_1", "get_weather", {"city": "Paris"}),
                tool_use("call_2", "get_weather", {"city": "Rome"}),
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": "18C"},
                {"type": "tool_result", "tool_use_id": "call_2", "content": "25C"},
                {"type": "text", "text": "And tomorrow?"},
            ],
        },
    ]


def test_anthropic_results_become_tool_messages_before_the_user_text() -> None:
    out = from_anthropic(
        anthropic_body(
            [
                {"role": "user", "content": "Weather in Paris and Rome?"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Checking both."},
                        tool_use("toolu_1", "get_weather", {"city": "Paris"}),
                        tool_use("toolu_2", "get_weather", {"city": "Rome"}),
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"},
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_2",
                            "content": [{"type": "text", "text": "25C"}],
                        },
                        {"type": "text", "text": "Thanks"},
                    ],
                },
            ]
        )
    )
    assert out["messages"][1:] == [
        {
            "role": "assistant",
            "content": "Checking both.",
            "tool_calls": [
                call("toolu_1", "get_weather", {"city": "Paris"}),
                call("toolu_2", "get_weather", {"city": "Rome"}),
            ],
        },
        {"role": "tool", "tool_call_id": "toolu_1", "content": "18C"},
        {"role": "tool", "tool_call_id": "toolu_2", "content": "25C"},
        {"role": "user", "content": "Thanks"},
    ]


# --- the error convention, both ways ------------------------------------------------


def _anthropic_result(content: str, is_error: bool | None) -> dict[str, Any]:
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": "toolu_1", "content": content}
    if is_error is not None:
        result["is_error"] = is_error
    return anthropic_body(
        [
            {"role": "user", "content": "Read it"},
            {"role": "assistant", "content": [tool_use("toolu_1", "read_file", {"path": "a"})]},
            {"role": "user", "content": [result]},
        ]
    )


@pytest.mark.parametrize(
    ("content", "is_error", "expected"),
    [
        ("file not found", True, "Error: file not found"),
        ("Error: file not found", True, "Error: file not found"),  # never doubled
        ("file not found", False, "file not found"),
        ("file not found", None, "file not found"),
    ],
)
def test_is_error_becomes_the_error_prefix_in_openai_chat(
    content: str, is_error: bool | None, expected: str
) -> None:
    out = from_anthropic(_anthropic_result(content, is_error))
    assert out["messages"][-1] == {"role": "tool", "tool_call_id": "toolu_1", "content": expected}


@pytest.mark.parametrize(
    ("content", "flagged"),
    [
        ("Error: file not found", True),
        ("  error : permission denied", True),
        ("ERROR: disk full", True),
        ("FileNotFoundError: no such file", False),
        ("Errors: 0", False),
        ("No error: all good", False),
    ],
)
def test_the_error_prefix_becomes_is_error_in_anthropic(content: str, flagged: bool) -> None:
    out = to_anthropic(
        openai_body(
            [
                {"role": "user", "content": "Read it"},
                {"role": "assistant", "tool_calls": [call("call_1", "read_file", {"path": "a"})]},
                {"role": "tool", "tool_call_id": "call_1", "content": content},
            ]
        )
    )
    result = out["messages"][-1]["content"][0]
    expected: dict[str, Any] = {"type": "tool_result", "tool_use_id": "call_1", "content": content}
    if flagged:
        expected["is_error"] = True
    assert result == expected


# --- system prompts -----------------------------------------------------------------


def test_system_and_developer_messages_become_the_top_level_system() -> None:
    out = to_anthropic(
        openai_body(
            [
                {"role": "system", "content": "Be brief."},
                {"role": "developer", "content": [{"type": "text", "text": "Use metric units."}]},
                {"role": "user", "content": "Hi"},
            ]
        )
    )
    assert out["system"] == [
        {"type": "text", "text": "Be brief."},
        {"type": "text", "text": "Use metric units."},
    ]
    assert out["messages"] == [{"role": "user", "content": "Hi"}]


def test_one_system_string_stays_a_string_and_an_empty_one_disappears() -> None:
    one = to_anthropic(openai_body([{"role": "system", "content": "Be brief."}, _hi()]))
    assert one["system"] == "Be brief."
    empty = to_anthropic(openai_body([{"role": "system", "content": ""}, _hi()]))
    assert "system" not in empty


def test_anthropic_system_becomes_a_leading_system_message() -> None:
    as_string = from_anthropic(anthropic_body([_hi()], system="Be brief."))
    assert as_string["messages"][0] == {"role": "system", "content": "Be brief."}
    as_blocks = from_anthropic(
        anthropic_body(
            [_hi()],
            system=[{"type": "text", "text": "A"}, {"type": "text", "text": "B"}],
        )
    )
    assert as_blocks["messages"][0] == {
        "role": "system",
        "content": [{"type": "text", "text": "A"}, {"type": "text", "text": "B"}],
    }
    assert [m["role"] for m in as_blocks["messages"]] == ["system", "user"]


def _hi() -> dict[str, Any]:
    return {"role": "user", "content": "Hi"}


# --- empty text and max_tokens ------------------------------------------------------


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        if value.get("type") == "text":
            yield value["text"]
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def test_no_empty_text_block_reaches_anthropic() -> None:
    out = to_anthropic(
        openai_body(
            [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": ""}, {"type": "text", "text": "Go"}],
                },
                {"role": "assistant", "content": "", "tool_calls": [call("c1", "run", {})]},
                {"role": "tool", "tool_call_id": "c1", "content": ""},
            ]
        )
    )
    assert "" not in list(_texts(out))
    assert out["messages"] == [
        {"role": "user", "content": "Go"},
        {"role": "assistant", "content": [tool_use("c1", "run", {})]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1"}]},
    ]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, DEFAULT_MAX_TOKENS),
        ({"max_tokens": 300}, 300),
        ({"max_completion_tokens": 500, "max_tokens": 300}, 500),
    ],
)
def test_max_tokens_is_carried_or_defaulted(fields: dict[str, Any], expected: int) -> None:
    assert DEFAULT_MAX_TOKENS == 4096
    assert to_anthropic(openai_body([_hi()], **fields))["max_tokens"] == expected


def test_max_tokens_goes_to_each_chat_dialect_s_own_field() -> None:
    openai = from_anthropic(anthropic_body([_hi()]), OPENAI_CHAT)
    deepseek = from_anthropic(anthropic_body([_hi()]), DEEPSEEK_CHAT)
    assert (openai.get("max_completion_tokens"), "max_tokens" in openai) == (1024, False)
    assert (deepseek.get("max_tokens"), "max_completion_tokens" in deepseek) == (1024, False)
