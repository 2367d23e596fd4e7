"""openai-chat / deepseek-chat requests: parse, render, shape errors."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.openai_chat import DEEPSEEK_CHAT_CODEC, OPENAI_CHAT_CODEC
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Conversation,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolChoice,
    ToolDef,
    ToolResult,
    Turn,
)

codec = OPENAI_CHAT_CODEC

WEATHER_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}
WEATHER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": WEATHER_PARAMETERS,
        "strict": True,
    },
}


def _request(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-test", "messages": list(messages), **fields}


def _roundtrip(payload: dict[str, Any]) -> Conversation:
    original = copy.deepcopy(payload)
    conversation = codec.parse_request(payload)
    assert codec.render_request(conversation) == original
    assert payload == original, "parsing must not mutate the payload"
    return conversation


def test_full_conversation_parses_into_turns_and_round_trips() -> None:
    payload = _request(
        {"role": "system", "content": "Be brief."},
        {"role": "developer", "content": "Use metric units."},
        {"role": "user", "content": "Weather in Paris and Lyon?", "name": "ana"},
        {
            "role": "assistant",
            "reasoning_content": "Two cities, two calls.",
            "content": "Checking both.",
            "tool_calls": [
                {
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Lyon"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": "18C"},
        {"role": "tool", "tool_call_id": "call_b", "content": "21C"},
        {"role": "critic", "content": "unknown roles are kept"},
        tools=[WEATHER_TOOL],
        tool_choice="auto",
        parallel_tool_calls=True,
        stream=False,
        temperature=0.2,
        stream_options={"include_usage": True},
    )
    conversation = _roundtrip(payload)

    assert conversation.dialect == "openai-chat"
    assert conversation.model == "gpt-test"
    assert [t.role for t in conversation.turns] == [
        "system",
        "developer",
        "user",
        "assistant",
        "tool",
        "tool",
        "critic",
    ]
    assert conversation.turns[2] == Turn(
        role="user",
        blocks=(TextBlock("Weather in Paris and Lyon?"),),
        content_form="string",
        extra={"name": "ana"},
    )
    assistant = conversation.turns[3]
    assert assistant.blocks == (
        ThinkingBlock(origin="reasoning_content", text="Two cities, two calls."),
        TextBlock("Checking both."),
        ToolCall(
            id="call_a",
            name="get_weather",
            arguments={"city": "Paris"},
            raw_arguments='{"city": "Paris"}',
            extra={"type": "function"},
        ),
        ToolCall(
            id="call_b",
            name="get_weather",
            arguments={"city": "Lyon"},
            raw_arguments='{"city":"Lyon"}',
            extra={"type": "function"},
        ),
    )
    assert conversation.turns[4] == Turn(
        role="tool",
        blocks=(ToolResult(call_id="call_a", content=(TextBlock("18C"),), content_form="string"),),
        content_form="string",
    )
    assert conversation.turns[4].tool_results[0].is_error is None
    assert conversation.tools == (
        ToolDef(
            name="get_weather",
            description="Weather for a city.",
            parameters=WEATHER_PARAMETERS,
            strict=True,
        ),
    )
    assert conversation.tool_choice == ToolChoice(mode="auto", raw="auto")
    assert conversation.parallel_tool_calls is True
    assert conversation.stream is False
    assert conversation.extra == {"temperature": 0.2, "stream_options": {"include_usage": True}}
    assert conversation.system == ()


@pytest.mark.parametrize(
    ("message", "form", "blocks"),
    [
        ({"role": "assistant", "content": ""}, "string", (TextBlock(""),)),
        ({"role": "assistant", "content": None}, "null", ()),
        ({"role": "assistant"}, "absent", ()),
        ({"role": "assistant", "content": []}, "blocks", ()),
        (
            {"role": "user", "content": [{"type": "text", "text": ""}]},
            "blocks",
            (TextBlock(""),),
        ),
    ],
    ids=["empty-string", "null", "absent", "empty-list", "empty-text-part"],
)
def test_content_forms_are_recorded_and_round_trip(
    message: dict[str, Any], form: str, blocks: tuple[Any, ...]
) -> None:
    turn = _roundtrip(_request(message)).turns[0]
    assert turn.content_form == form
    assert turn.blocks == blocks


def test_content_forms_survive_next_to_tool_calls() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    contents: list[dict[str, Any]] = [{"content": None}, {"content": ""}, {}, {"content": []}]
    for content in contents:
        payload = _request({"role": "assistant", **content, "tool_calls": [call]})
        turn = _roundtrip(payload).turns[0]
        assert len(turn.tool_calls) == 1


def test_content_parts_become_text_and_opaque_blocks() -> None:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}
    audio = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
    payload = _request(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?", "cache_control": {"type": "ephemeral"}},
                image,
                audio,
            ],
        }
    )
    turn = _roundtrip(payload).turns[0]
    assert turn.content_form == "blocks"
    assert turn.blocks == (
        TextBlock("What is this?", extra={"cache_control": {"type": "ephemeral"}}),
        OpaqueBlock(type="image_url", raw=image),
        OpaqueBlock(type="input_audio", raw=audio),
    )


def _call(arguments: Any, **fields: Any) -> dict[str, Any]:
    function = {"name": "f", "arguments": arguments} if arguments is not ... else {"name": "f"}
    return {"id": "c1", "type": "function", "function": function, **fields}


def _parsed_call(entry: dict[str, Any]) -> ToolCall:
    turn = _roundtrip(_request({"role": "assistant", "tool_calls": [entry]})).turns[0]
    (call,) = turn.tool_calls
    return call


def test_invalid_json_arguments_are_kept_raw_with_an_error() -> None:
    call = _parsed_call(_call('{"city": "Par'))
    assert call.arguments is None
    assert call.raw_arguments == '{"city": "Par'
    assert call.arguments_error is not None
    assert "not valid JSON" in call.arguments_error


@pytest.mark.parametrize("text", ["", "   ", "NaN", "{'a': 1}"])
def test_text_that_is_not_json_is_an_arguments_error(text: str) -> None:
    call = _parsed_call(_call(text))
    assert call.arguments is None
    assert call.raw_arguments == text
    assert call.arguments_error


def test_double_encoded_arguments_stay_a_string_for_the_rules() -> None:
    raw = '"{\\"city\\": \\"Paris\\"}"'
    call = _parsed_call(_call(raw))
    assert call.arguments == '{"city": "Paris"}'
    assert call.raw_arguments == raw
    assert call.arguments_error is None


def test_unicode_and_numbers_in_arguments_are_kept_exactly() -> None:
    raw = '{"city":"Zürich","t":1.50,"big":12345678901234567890}'
    call = _parsed_call(_call(raw))
    assert call.arguments == {"city": "Zürich", "t": 1.5, "big": 12345678901234567890}
    assert call.raw_arguments == raw


def test_arguments_sent_as_an_object_are_kept_and_flagged() -> None:
    call = _parsed_call(_call({"city": "Paris"}))
    assert call.arguments == {"city": "Paris"}
    assert call.raw_arguments is None
    assert call.arguments_error is not None
    assert "not a JSON string" in call.arguments_error


def test_missing_arguments_round_trip_without_inventing_text() -> None:
    call = _parsed_call(_call(...))
    assert call.arguments is None
    assert call.raw_arguments is None
    assert call.arguments_error == "function.arguments is missing"


def test_unnamed_tool_call_fields_round_trip_including_missing_type() -> None:
    no_type = {"id": "c1", "function": {"name": "f", "arguments": "{}"}}
    assert _parsed_call(no_type).extra == {}
    odd = {
        "id": "c1",
        "type": "function",
        "index": 0,
        "function": {"name": "f", "arguments": "{}", "thought_signature": "xyz"},
    }
    assert _parsed_call(odd).extra == {
        "type": "function",
        "index": 0,
        "function": {"thought_signature": "xyz"},
    }


def test_null_and_non_string_ids_and_names_round_trip() -> None:
    call = _parsed_call(
        {"id": None, "type": "function", "function": {"name": 7, "arguments": "{}"}}
    )
    assert call.id is None
    assert call.name is None
    assert call.extra == {"type": "function", "id": None, "function": {"name": 7}}


def test_semantic_mistakes_parse_faithfully() -> None:
    payload = _request(
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                {"id": "dup", "type": "function", "function": {"name": "", "arguments": "{}"}},
                {"id": "dup", "type": "function", "function": {"name": "g", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "nobody", "content": "orphan"},
        {"role": "tool", "content": "no id at all"},
        {"role": "tool", "tool_call_id": None, "content": None},
    )
    conversation = _roundtrip(payload)
    assert [c.id for c in conversation.turns[1].tool_calls] == ["", "dup", "dup"]
    assert conversation.turns[1].tool_calls[1].name == ""
    assert conversation.turns[2].tool_results[0].call_id == "nobody"
    assert conversation.turns[3].tool_results[0].call_id is None
    null_result = conversation.turns[4].tool_results[0]
    assert null_result.call_id is None
    assert null_result.content_form == "null"
    assert conversation.turns[4].extra == {"tool_call_id": None}


def test_tool_result_with_content_parts() -> None:
    message = {
        "role": "tool",
        "tool_call_id": "c1",
        "content": [{"type": "text", "text": "part one"}, {"type": "text", "text": "two"}],
    }
    turn = _roundtrip(_request(message)).turns[0]
    (result,) = turn.tool_results
    assert result.content == (TextBlock("part one"), TextBlock("two"))
    assert result.content_form == "blocks"
    assert turn.content_form == "blocks"


def test_both_reasoning_fields_are_recognised_in_order() -> None:
    message = {"role": "assistant", "reasoning": "groq style", "reasoning_content": "deepseek"}
    turn = _roundtrip(_request(message)).turns[0]
    assert turn.blocks == (
        ThinkingBlock(origin="reasoning_content", text="deepseek"),
        ThinkingBlock(origin="reasoning", text="groq style"),
    )


def test_empty_and_null_reasoning_differ() -> None:
    empty = _roundtrip(_request({"role": "assistant", "reasoning_content": ""})).turns[0]
    assert empty.blocks == (ThinkingBlock(origin="reasoning_content", text=""),)
    null = _roundtrip(_request({"role": "assistant", "reasoning_content": None})).turns[0]
    assert null.blocks == ()
    assert null.extra == {"reasoning_content": None}


def test_null_and_empty_tool_calls_round_trip_without_calls() -> None:
    values: list[list[Any] | None] = [None, []]
    for value in values:
        turn = _roundtrip(_request({"role": "assistant", "content": "x", "tool_calls": value}))
        assert turn.turns[0].tool_calls == ()


def test_tools_of_other_types_and_unnamed_fields_round_trip() -> None:
    custom = {"type": "custom", "custom": {"name": "sql", "format": {"type": "text"}}}
    odd_function = {
        "type": "function",
        "function": {"name": "f", "parameters": None, "x-extra": 1},
        "cache_control": {"type": "ephemeral"},
    }
    conversation = _roundtrip(
        _request({"role": "user", "content": "q"}, tools=[custom, odd_function])
    )
    assert conversation.tools is not None
    assert conversation.tools[0] == ToolDef(
        name="sql", kind="custom", extra={"custom": custom["custom"]}
    )
    assert conversation.tools[1].parameters is None
    assert conversation.tools[1].extra == {
        "cache_control": {"type": "ephemeral"},
        "function": {"parameters": None, "x-extra": 1},
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("auto", ToolChoice(mode="auto", raw="auto")),
        ("none", ToolChoice(mode="none", raw="none")),
        ("required", ToolChoice(mode="required", raw="required")),
        (
            {"type": "function", "function": {"name": "get_weather"}},
            ToolChoice(
                mode="tool",
                name="get_weather",
                raw={"type": "function", "function": {"name": "get_weather"}},
            ),
        ),
    ],
)
def test_tool_choice_values(value: Any, expected: ToolChoice) -> None:
    conversation = _roundtrip(_request({"role": "user", "content": "q"}, tool_choice=value))
    assert conversation.tool_choice == expected
    assert "tool_choice" not in conversation.extra


@pytest.mark.parametrize(
    "value", [None, "any", {"type": "allowed_tools", "allowed_tools": {"mode": "auto"}}]
)
def test_tool_choice_outside_the_documented_set_stays_in_extra(value: Any) -> None:
    conversation = _roundtrip(_request({"role": "user", "content": "q"}, tool_choice=value))
    assert conversation.tool_choice is None
    assert conversation.extra == {"tool_choice": value}


def test_null_tools_model_and_flags_stay_in_extra() -> None:
    payload: dict[str, Any] = {
        "model": None,
        "messages": [],
        "tools": None,
        "parallel_tool_calls": None,
        "stream": "yes",
    }
    conversation = _roundtrip(payload)
    assert conversation.model is None
    assert conversation.tools is None
    assert conversation.parallel_tool_calls is None
    assert conversation.stream is None
    assert conversation.extra == {
        "model": None,
        "tools": None,
        "parallel_tool_calls": None,
        "stream": "yes",
    }


GOOD = {"role": "user", "content": "hi"}
FUNCTION = {"name": "f", "arguments": "{}"}


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ([GOOD], ""),
        ({"model": "m"}, "messages"),
        ({"messages": {"role": "user"}}, "messages"),
        ({"messages": [GOOD, "hello"]}, "messages[1]"),
        ({"messages": [{"content": "no role"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
        ({"messages": [{"role": "user", "content": ["x"]}]}, "messages[0].content[0]"),
        (
            {"messages": [{"role": "user", "content": [{"text": "a"}]}]},
            "messages[0].content[0].type",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "text"}]}]},
            "messages[0].content[0].text",
        ),
        (
            {"messages": [{"role": "assistant", "reasoning_content": 3}]},
            "messages[0].reasoning_content",
        ),
        (
            {"messages": [GOOD, GOOD, GOOD, {"role": "assistant", "tool_calls": {"id": "c"}}]},
            "messages[3].tool_calls",
        ),
        (
            {"messages": [GOOD, GOOD, GOOD, {"role": "assistant", "tool_calls": ["call"]}]},
            "messages[3].tool_calls[0]",
        ),
        (
            {
                "messages": [
                    GOOD,
                    GOOD,
                    GOOD,
                    {"role": "assistant", "tool_calls": [{"id": "c", "type": "function"}]},
                ]
            },
            "messages[3].tool_calls[0].function",
        ),
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {"id": "a", "type": "function", "function": FUNCTION},
                            {"id": "b", "type": "function", "function": '{"name": "f"}'},
                        ],
                    }
                ]
            },
            "messages[0].tool_calls[1].function",
        ),
        ({"messages": [], "tools": {"type": "function"}}, "tools"),
        ({"messages": [], "tools": ["get_weather"]}, "tools[0]"),
        ({"messages": [], "tools": [WEATHER_TOOL, {"function": FUNCTION}]}, "tools[1].type"),
        ({"messages": [], "tools": [{"type": "function"}]}, "tools[0].function"),
    ],
)
def test_shape_errors_name_their_json_path(payload: Any, path: str) -> None:
    with pytest.raises(WireFormatError) as caught:
        codec.parse_request(payload)
    assert caught.value.path == path
    assert str(caught.value).startswith(f"{path or '$'}: ")


def test_code_built_conversation_renders_the_natural_openai_form() -> None:
    conversation = Conversation(
        dialect="anthropic-messages",
        model="gpt-test",
        system=(TextBlock("Be brief."),),
        system_form="string",
        turns=(
            Turn(role="user", blocks=(TextBlock("Weather in Zürich?"),), content_form="string"),
            Turn(
                role="assistant",
                blocks=(
                    ThinkingBlock(origin="thinking", text="Call the tool.", signature="sig=="),
                    ToolCall(id="toolu_1", name="get_weather", arguments={"city": "Zürich"}),
                ),
            ),
            Turn(role="tool", blocks=(ToolResult(call_id="toolu_1", content=(TextBlock("3C"),)),)),
            Turn(role="user", blocks=(TextBlock("Thanks"), TextBlock("!"))),
        ),
        tools=(ToolDef(name="get_weather", parameters={"type": "object"}),),
        tool_choice=ToolChoice(mode="required", raw={"type": "any"}),
        parallel_tool_calls=False,
    )
    assert codec.render_request(conversation) == {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather in Zürich?"},
            {
                "role": "assistant",
                "reasoning_content": "Call the tool.",
                "content": None,
                "tool_calls": [
                    {
                        "id": "toolu_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Zürich"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "toolu_1", "content": "3C"},
            {
                "role": "user",
                "content": [{"type": "text", "text": "Thanks"}, {"type": "text", "text": "!"}],
            },
        ],
        "tools": [
            {
                "type": "function",
                "function": {"name": "get_weather", "parameters": {"type": "object"}},
            }
        ],
        "tool_choice": "required",
        "parallel_tool_calls": False,
    }


def test_stale_or_foreign_raw_arguments_are_not_written() -> None:
    changed = ToolCall(id="c", name="f", arguments={"n": 2}, raw_arguments='{"n": 1}')
    qwen_markup = ToolCall(
        id="c", name="f", arguments={"n": 1}, raw_arguments="<parameter=n>\n1\n</parameter>"
    )
    turn = Turn(role="assistant", blocks=(changed, qwen_markup), content_form="null")
    message = codec.render_request(Conversation(dialect="openai-chat", turns=(turn,)))["messages"][
        0
    ]
    assert [c["function"]["arguments"] for c in message["tool_calls"]] == ['{"n": 2}', '{"n": 1}']
    assert all(c["type"] == "function" for c in message["tool_calls"])


def test_redacted_thinking_without_text_writes_no_reasoning() -> None:
    turn = Turn(
        role="assistant",
        blocks=(ThinkingBlock(origin="redacted_thinking", redacted_data="abc"), TextBlock("hi")),
        content_form="string",
    )
    message = codec.render_request(Conversation(dialect="openai-chat", turns=(turn,)))["messages"][
        0
    ]
    assert message == {"role": "assistant", "content": "hi"}


def test_results_inside_a_user_turn_cannot_be_rendered() -> None:
    turn = Turn(role="user", blocks=(ToolResult(call_id="c", content=(TextBlock("ok"),)),))
    conversation = Conversation(dialect="anthropic-messages", turns=(Turn("user", ()), turn))
    with pytest.raises(WireFormatError) as caught:
        codec.render_request(conversation)
    assert caught.value.path == "messages[1]"
    assert caught.value.hint is not None


def test_deepseek_codec_is_the_same_shape_with_its_own_name() -> None:
    payload = _request(
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "", "reasoning_content": "think"},
        thinking={"type": "enabled"},
    )
    conversation = DEEPSEEK_CHAT_CODEC.parse_request(payload)
    assert DEEPSEEK_CHAT_CODEC.name == "deepseek-chat"
    assert conversation.dialect == "deepseek-chat"
    assert conversation.extra == {"thinking": {"type": "enabled"}}
    assert DEEPSEEK_CHAT_CODEC.render_request(conversation) == payload
    assert get_codec("deepseek-chat") is DEEPSEEK_CHAT_CODEC
    assert get_codec("openai-chat") is OPENAI_CHAT_CODEC
