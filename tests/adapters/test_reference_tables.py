"""The reference adapter's mapping tables: tool choice, tool definitions, stop
reasons, usage, ids, and the refusal of arguments it would have to guess."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference import ConversionError, ReferenceAdapter
from toolwire.harness.adapters.reference.ids import ANTHROPIC_ID, from_anthropic_id, to_anthropic_id
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, OPENAI_CHAT

ADAPTER = ReferenceAdapter()
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
ANTHROPIC_WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}
HI = {"role": "user", "content": "Hi"}


def openai_request(**fields: Any) -> dict[str, Any]:
    return {"model": "gpt-4.1", "messages": [HI], "tools": [WEATHER], **fields}


def anthropic_request(**fields: Any) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [HI],
        "tools": [ANTHROPIC_WEATHER],
        **fields,
    }


# --- tool definitions and tool choice ------------------------------------------------


def test_tool_definitions_map_both_ways() -> None:
    to_anthropic = ADAPTER.convert(openai_request(), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert to_anthropic["tools"] == [ANTHROPIC_WEATHER]
    to_openai = ADAPTER.convert(anthropic_request(), "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert to_openai["tools"] == [WEATHER]


def test_a_function_without_parameters_gets_an_empty_object_schema() -> None:
    bare = {"type": "function", "function": {"name": "ping"}}
    out = ADAPTER.convert(openai_request(tools=[bare]), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert out["tools"] == [{"name": "ping", "input_schema": {"type": "object", "properties": {}}}]


def test_tools_without_an_equivalent_are_declined_as_unsupported() -> None:
    server_tool = {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
    for target in (OPENAI_CHAT, DEEPSEEK_CHAT):
        with pytest.raises(UnsupportedConversion, match=r"tools\[0\] is a 'web_search_20250305'"):
            ADAPTER.convert(
                anthropic_request(tools=[server_tool]), "request", ANTHROPIC_MESSAGES, target
            )


SERVER_TURN = [
    {"type": "text", "text": "Searching."},
    {"type": "server_tool_use", "id": "srvtoolu_01A", "name": "web_search", "input": {"q": "x"}},
    {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_01A",
        "content": [{"type": "web_search_result", "title": "X", "url": "https://x.example"}],
    },
    {"type": "text", "text": "Found it."},
]


@pytest.mark.parametrize("target", [OPENAI_CHAT, DEEPSEEK_CHAT])
def test_server_tool_blocks_are_declined_as_unsupported(target: str) -> None:
    """Anthropic ran these tools itself: no Chat Completions block can carry them,
    so the adapter declines (verdict ``unsupported``) instead of raising an error."""
    replayed = anthropic_request(
        messages=[HI, {"role": "assistant", "content": SERVER_TURN}, HI], tools=[ANTHROPIC_WEATHER]
    )
    with pytest.raises(UnsupportedConversion, match="'server_tool_use' block"):
        ADAPTER.convert(replayed, "request", ANTHROPIC_MESSAGES, target)
    response = {
        "id": "msg_01A",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": SERVER_TURN,
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    with pytest.raises(UnsupportedConversion, match="server-side tool blocks"):
        ADAPTER.convert(response, "response", ANTHROPIC_MESSAGES, target)


# (openai fields, anthropic tool_choice)
CHOICES: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
    ({"tool_choice": "auto"}, {"type": "auto"}),
    ({"tool_choice": "none"}, {"type": "none"}),
    ({"tool_choice": "required"}, {"type": "any"}),
    (
        {"tool_choice": {"type": "function", "function": {"name": "get_weather"}}},
        {"type": "tool", "name": "get_weather"},
    ),
    (
        {"tool_choice": "required", "parallel_tool_calls": False},
        {"type": "any", "disable_parallel_tool_use": True},
    ),
    (
        {"tool_choice": "auto", "parallel_tool_calls": True},
        {"type": "auto", "disable_parallel_tool_use": False},
    ),
    ({"parallel_tool_calls": False}, {"type": "auto", "disable_parallel_tool_use": True}),
    ({}, None),
]


@pytest.mark.parametrize(("openai", "anthropic"), CHOICES)
def test_tool_choice_maps_openai_to_anthropic(
    openai: dict[str, Any], anthropic: dict[str, Any] | None
) -> None:
    out = ADAPTER.convert(openai_request(**openai), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert out.get("tool_choice") == anthropic
    assert "parallel_tool_calls" not in out


@pytest.mark.parametrize(("openai", "anthropic"), CHOICES)
def test_tool_choice_maps_anthropic_to_openai(
    openai: dict[str, Any], anthropic: dict[str, Any] | None
) -> None:
    fields = {} if anthropic is None else {"tool_choice": anthropic}
    out = ADAPTER.convert(anthropic_request(**fields), "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    expected = dict(openai)
    if anthropic == {"type": "auto", "disable_parallel_tool_use": True}:
        expected = {"tool_choice": "auto", "parallel_tool_calls": False}  # mode is explicit there
    assert {k: out[k] for k in ("tool_choice", "parallel_tool_calls") if k in out} == expected


def test_none_does_not_carry_a_parallel_switch_anthropic_does_not_document() -> None:
    fields = {"tool_choice": "none", "parallel_tool_calls": False}
    out = ADAPTER.convert(openai_request(**fields), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert out["tool_choice"] == {"type": "none"}


# --- stop reasons and usage ----------------------------------------------------------


def anthropic_response(stop_reason: str, content: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 31, "output_tokens": 7},
    }


def openai_response(finish: str, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38},
    }


TEXT = [{"type": "text", "text": "Hello"}]
CALL = [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}]


@pytest.mark.parametrize(
    ("stop_reason", "finish"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("tool_use", "tool_calls"),
        ("max_tokens", "length"),
        ("refusal", "content_filter"),
        ("pause_turn", "stop"),
    ],
)
@pytest.mark.parametrize("target", [OPENAI_CHAT, DEEPSEEK_CHAT])
def test_stop_reason_to_finish_reason(stop_reason: str, finish: str, target: str) -> None:
    content = CALL if stop_reason == "tool_use" else TEXT
    response = anthropic_response(stop_reason, content)
    out = ADAPTER.convert(response, "response", ANTHROPIC_MESSAGES, target)
    assert out["choices"][0]["finish_reason"] == finish
    assert out["usage"] == {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38}


@pytest.mark.parametrize(
    ("finish", "with_calls", "stop_reason"),
    [
        ("stop", False, "end_turn"),
        ("stop", True, "tool_use"),  # a forced tool_choice answers "stop" with calls
        ("tool_calls", True, "tool_use"),
        ("length", False, "max_tokens"),
        ("content_filter", False, "refusal"),
        ("insufficient_system_resource", False, "max_tokens"),
    ],
)
def test_finish_reason_to_stop_reason(finish: str, with_calls: bool, stop_reason: str) -> None:
    message: dict[str, Any] = {"role": "assistant", "content": "Hello"}
    if with_calls:
        arguments = json.dumps({"city": "Oslo"})
        message["tool_calls"] = [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": arguments},
            }
        ]
    source = DEEPSEEK_CHAT if finish == "insufficient_system_resource" else OPENAI_CHAT
    out = ADAPTER.convert(openai_response(finish, message), "response", source, ANTHROPIC_MESSAGES)
    assert out["stop_reason"] == stop_reason
    assert out["usage"] == {"input_tokens": 31, "output_tokens": 7}


def test_a_stream_cut_off_before_its_finish_reason_is_refused() -> None:
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}}],
    }
    with pytest.raises(ConversionError, match="has no stop reason"):
        ADAPTER.convert([{"event": None, "data": chunk}], "stream", OPENAI_CHAT, ANTHROPIC_MESSAGES)


def test_an_unknown_stop_reason_is_refused_not_guessed() -> None:
    response = openai_response("stop", {"role": "assistant", "content": "Hi"})
    response["choices"][0]["finish_reason"] = "eos"
    with pytest.raises(ConversionError, match="cannot map the chat-completions stop reason 'eos'"):
        ADAPTER.convert(response, "response", OPENAI_CHAT, ANTHROPIC_MESSAGES)


# --- arguments: never guessed ------------------------------------------------------


def _with_arguments(arguments: str) -> dict[str, Any]:
    bad_call = {
        "id": "call_bad_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }
    return openai_request(messages=[HI, {"role": "assistant", "tool_calls": [bad_call]}])


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ('{"city": "Oslo"', "not valid JSON"),
        ("", "not valid JSON"),
        ('"{\\"city\\": \\"Oslo\\"}"', "decode to a str, not a JSON object"),
        ("[1, 2]", "decode to a list, not a JSON object"),
    ],
)
def test_arguments_that_are_not_a_json_object_raise_a_clear_error(
    arguments: str, reason: str
) -> None:
    with pytest.raises(ValueError) as caught:
        ADAPTER.convert(_with_arguments(arguments), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    message = str(caught.value)
    assert "messages[1]" in message and "'call_bad_1'" in message and reason in message
    assert "\n" not in message
    assert isinstance(caught.value, ToolwireError)


def test_an_anthropic_input_that_is_a_string_is_refused() -> None:
    turn = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_9", "name": "f", "input": '{"a": 1}'}],
    }
    with pytest.raises(ConversionError, match=r"messages\[1\]: tool_use 'toolu_9' \(f\)"):
        ADAPTER.convert(
            anthropic_request(messages=[HI, turn]), "request", ANTHROPIC_MESSAGES, OPENAI_CHAT
        )


def test_valid_arguments_keep_unicode_and_numbers() -> None:
    arguments = {"city": "Zürich 東京", "days": 3, "ratio": 0.1, "big": 12345678901234567890}
    body = _with_arguments(json.dumps(arguments, ensure_ascii=False))
    out = ADAPTER.convert(body, "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert out["messages"][1]["content"][0]["input"] == arguments
    back = ADAPTER.convert(out, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert json.loads(back["messages"][1]["tool_calls"][0]["function"]["arguments"]) == arguments


# --- ids --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call_id",
    ["call_abc-1", "toolu_01X", "call:1", "functions.get_weather:0", "twid_abc", "ünï", "a b", "x"],
)
def test_the_id_mapping_is_legal_and_reversible(call_id: str) -> None:
    mapped = to_anthropic_id(call_id)
    assert mapped is not None and ANTHROPIC_ID.match(mapped)
    assert from_anthropic_id(mapped) == call_id
    legal_already = ANTHROPIC_ID.match(call_id) and not call_id.startswith("twid_")
    assert (mapped == call_id) == bool(legal_already)


@pytest.mark.parametrize(
    "call_id",
    # "twid_YWJj" decodes to "abc", which the mapping never encodes: not ours.
    ["toolu_01ABC", "twid_YWJj", "twid_not-base64!", "twid_", ""],
)
def test_ids_the_mapping_did_not_write_are_never_decoded(call_id: str) -> None:
    assert from_anthropic_id(call_id) == call_id


def test_an_illegal_id_maps_consistently_and_the_mapping_is_declared() -> None:
    weird = "functions.get_weather:0"
    body = openai_request(
        messages=[
            HI,
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": weird,
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": weird, "content": "sunny"},
        ]
    )
    out = ADAPTER.convert(body, "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    use_id = out["messages"][1]["content"][0]["id"]
    result_id = out["messages"][2]["content"][0]["tool_use_id"]
    assert use_id == result_id == to_anthropic_id(weird) != weird
    assert ADAPTER.id_mapping(body, "request", OPENAI_CHAT, ANTHROPIC_MESSAGES) == {weird: use_id}
    back = ADAPTER.convert(out, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert back["messages"][1]["tool_calls"][0]["id"] == weird
    assert back["messages"][2]["tool_call_id"] == weird
    assert ADAPTER.id_mapping(out, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT) == {use_id: weird}


def test_legal_ids_declare_no_mapping() -> None:
    body = openai_request(messages=[HI])
    assert ADAPTER.id_mapping(body, "request", OPENAI_CHAT, ANTHROPIC_MESSAGES) == {}
