"""anthropic-messages requests: shapes, forms, blocks, tools (hand-written payloads)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal

import pytest

from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    ContentForm,
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

CODEC = get_codec(ANTHROPIC_MESSAGES)
Mode = Literal["auto", "none", "required", "tool"]


def base_request() -> dict[str, Any]:
    """A tool-use loop with thinking, parallel calls, an error result and text."""
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather in Paris and Rome?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Two cities.", "signature": "sig-1"},
                    {"type": "text", "text": "Checking both."},
                    {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"c": "P"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "weather", "input": {"c": "R"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_2",
                        "content": [{"type": "text", "text": "timeout"}],
                        "is_error": True,
                    },
                    {"type": "text", "text": "Thanks"},
                ],
            },
        ],
        "tools": [
            {
                "name": "weather",
                "description": "Current weather",
                "input_schema": {"type": "object", "properties": {"c": {"type": "string"}}},
            }
        ],
        "tool_choice": {"type": "auto"},
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "stream": False,
    }


def roundtrip(payload: dict[str, Any]) -> Conversation:
    conversation = CODEC.parse_request(payload)
    assert CODEC.render_request(conversation) == payload
    return conversation


def test_parses_the_named_fields_and_keeps_the_rest_in_extra() -> None:
    conversation = roundtrip(base_request())
    assert conversation.model == "claude-sonnet-4-5"
    assert conversation.stream is False
    assert conversation.extra == {
        "max_tokens": 1024,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
    }
    assert conversation.system == (TextBlock("Be brief."),)
    assert conversation.system_form == "string"
    assert [t.role for t in conversation.turns] == ["user", "assistant", "user"]


def test_blocks_become_canonical_blocks() -> None:
    turns = roundtrip(base_request()).turns
    assert turns[0].blocks == (TextBlock("Weather in Paris and Rome?"),)
    assert turns[0].content_form == "string"
    assert turns[1].content_form == "blocks"
    assert turns[1].blocks == (
        ThinkingBlock(origin="thinking", text="Two cities.", signature="sig-1"),
        TextBlock("Checking both."),
        ToolCall(id="toolu_1", name="weather", arguments={"c": "P"}),
        ToolCall(id="toolu_2", name="weather", arguments={"c": "R"}),
    )
    first, second, text = turns[2].blocks
    assert first == ToolResult(
        call_id="toolu_1", content=(TextBlock("18C"),), content_form="string"
    )
    assert second == ToolResult(
        call_id="toolu_2", content=(TextBlock("timeout"),), content_form="blocks", is_error=True
    )
    assert text == TextBlock("Thanks")


def with_message(content: Any, role: str = "user") -> dict[str, Any]:
    return {"model": "m", "max_tokens": 10, "messages": [{"role": role, "content": content}]}


def only_block(payload: dict[str, Any]) -> Any:
    blocks = roundtrip(payload).turns[0].blocks
    assert len(blocks) == 1
    return blocks[0]


@pytest.mark.parametrize(
    ("result", "content", "form", "is_error"),
    [
        ({"content": "ok"}, (TextBlock("ok"),), "string", None),
        ({"content": ""}, (TextBlock(""),), "string", None),
        (
            {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
            (TextBlock("a"), TextBlock("b")),
            "blocks",
            None,
        ),
        ({"content": []}, (), "blocks", None),
        ({}, (), "absent", None),
        ({"content": None}, (), "null", None),
        ({"content": "boom", "is_error": True}, (TextBlock("boom"),), "string", True),
        ({"content": "fine", "is_error": False}, (TextBlock("fine"),), "string", False),
    ],
)
def test_tool_result_content_and_error_flag(
    result: dict[str, Any], content: tuple[Any, ...], form: ContentForm, is_error: bool | None
) -> None:
    block = only_block(with_message([{"type": "tool_result", "tool_use_id": "t1", **result}]))
    assert block == ToolResult(call_id="t1", content=content, content_form=form, is_error=is_error)


def test_tool_result_with_an_image_keeps_it_opaque() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}
    block = only_block(
        with_message([{"type": "tool_result", "tool_use_id": "t", "content": [image]}])
    )
    assert block.content == (OpaqueBlock(type="image", raw=image),)


def test_redacted_thinking_keeps_its_data() -> None:
    block = only_block(with_message([{"type": "redacted_thinking", "data": "EmwK"}], "assistant"))
    assert block == ThinkingBlock(origin="redacted_thinking", redacted_data="EmwK")


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"q": "x"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        {
            "type": "mcp_tool_use",
            "id": "mcptoolu_1",
            "name": "ask",
            "server_name": "wiki",
            "input": {},
        },
        {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "is_error": False, "content": []},
        {"type": "code_execution_tool_result", "tool_use_id": "s", "content": {"stdout": "1"}},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "d"}},
        {"type": "container_upload", "file_id": "file_1"},
        {"type": "a_block_type_from_the_future", "anything": [1, 2]},
    ],
)
def test_other_block_types_are_opaque_and_round_trip(raw: dict[str, Any]) -> None:
    block = only_block(with_message([raw], "assistant"))
    assert block == OpaqueBlock(type=raw["type"], raw=raw)


def test_semantic_mistakes_parse_faithfully() -> None:
    payload = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "converter put the system prompt here"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": ""},
                    {"type": "tool_use", "id": "t1", "name": "f", "input": '{"a": 1}'},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "before"},
                    {"type": "tool_result", "tool_use_id": "nobody", "content": "x"},
                ],
            },
        ],
    }
    turns = roundtrip(payload).turns
    assert turns[0].role == "system"
    assert turns[1].blocks[0] == TextBlock("")
    call = turns[1].blocks[1]
    assert isinstance(call, ToolCall)
    assert call.arguments == '{"a": 1}'  # the double-encoded string, kept as is
    assert call.raw_arguments is None
    assert turns[2].tool_results[0].call_id == "nobody"


def test_unknown_keys_of_known_blocks_go_to_extra() -> None:
    payload = with_message(
        [
            {
                "type": "text",
                "text": "hi",
                "cache_control": {"type": "ephemeral"},
                "citations": None,
            },
            {"type": "tool_use", "id": "t", "name": "f", "input": {}, "caller": {"type": "direct"}},
            {"type": "tool_result", "tool_use_id": "t", "content": "r", "cache_control": {"x": 1}},
        ],
        "assistant",
    )
    text, call, result = roundtrip(payload).turns[0].blocks
    assert text == TextBlock(
        "hi", extra={"cache_control": {"type": "ephemeral"}, "citations": None}
    )
    assert isinstance(call, ToolCall)
    assert call.extra == {"caller": {"type": "direct"}}
    assert isinstance(result, ToolResult)
    assert result.extra == {"cache_control": {"x": 1}}


def test_explicit_nulls_round_trip() -> None:
    payload = with_message(
        [
            {"type": "thinking", "thinking": "t", "signature": None},
            {"type": "tool_use", "id": None, "name": "f", "input": None},
            {"type": "tool_result", "tool_use_id": "t", "content": "r", "is_error": None},
        ],
        "assistant",
    )
    payload.update({"tools": None, "tool_choice": None, "stream": None, "system": None})
    conversation = roundtrip(payload)
    thinking, call, result = conversation.turns[0].blocks
    assert isinstance(thinking, ThinkingBlock)
    assert thinking.signature is None
    assert isinstance(call, ToolCall)
    assert (call.id, call.arguments) == (None, None)
    assert isinstance(result, ToolResult)
    assert result.is_error is None
    assert conversation.tools is None
    assert conversation.system_form == "null"


def test_message_without_content_and_extra_message_keys_round_trip() -> None:
    payload = {"messages": [{"role": "user"}, {"role": "user", "content": "x", "name": "bob"}]}
    first, second = roundtrip(payload).turns
    assert (first.blocks, first.content_form) == ((), "absent")
    assert second.extra == {"name": "bob"}


@pytest.mark.parametrize(
    ("system", "blocks", "form"),
    [
        ("You are terse.", (TextBlock("You are terse."),), "string"),
        (
            [{"type": "text", "text": "A", "cache_control": {"type": "ephemeral"}}],
            (TextBlock("A", extra={"cache_control": {"type": "ephemeral"}}),),
            "blocks",
        ),
        (None, (), "null"),
    ],
)
def test_system_forms(system: Any, blocks: tuple[Any, ...], form: ContentForm) -> None:
    conversation = roundtrip({"system": system, "messages": []})
    assert (conversation.system, conversation.system_form) == (blocks, form)


def test_absent_system() -> None:
    conversation = roundtrip({"messages": []})
    assert (conversation.system, conversation.system_form) == ((), "absent")


def test_tools_custom_and_server() -> None:
    tools = [
        {
            "type": "custom",
            "name": "f",
            "description": "d",
            "input_schema": {"type": "object"},
            "strict": True,
            "cache_control": {"type": "ephemeral"},
        },
        {"name": "g", "input_schema": {"type": "object"}, "defer_loading": True},
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3, "user_location": None},
        {"type": "code_execution_20250825", "name": "code_execution"},
    ]
    parsed = roundtrip({"messages": [], "tools": tools}).tools
    assert parsed == (
        ToolDef(
            name="f",
            description="d",
            parameters={"type": "object"},
            strict=True,
            kind="function",
            extra={"type": "custom", "cache_control": {"type": "ephemeral"}},
        ),
        ToolDef(name="g", parameters={"type": "object"}, extra={"defer_loading": True}),
        ToolDef(
            name="web_search",
            kind="web_search_20250305",
            extra={"max_uses": 3, "user_location": None},
        ),
        ToolDef(name="code_execution", kind="code_execution_20250825"),
    )


@pytest.mark.parametrize(
    ("raw", "mode", "name", "disable", "parallel"),
    [
        ({"type": "auto"}, "auto", None, None, None),
        ({"type": "any"}, "required", None, None, None),
        ({"type": "none"}, "none", None, None, None),
        ({"type": "tool", "name": "f"}, "tool", "f", None, None),
        ({"type": "auto", "disable_parallel_tool_use": True}, "auto", None, True, False),
        ({"type": "any", "disable_parallel_tool_use": False}, "required", None, False, True),
    ],
)
def test_tool_choice(
    raw: dict[str, Any], mode: Mode, name: str | None, disable: bool | None, parallel: bool | None
) -> None:
    conversation = roundtrip({"messages": [], "tool_choice": raw})
    assert conversation.tool_choice == ToolChoice(
        mode=mode, name=name, disable_parallel=disable, raw=raw
    )
    assert conversation.parallel_tool_calls is parallel


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(payload: dict[str, Any]) -> None:
        target: Any = payload
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def mutate(payload: dict[str, Any]) -> None:
        target: Any = payload
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (_delete(["messages"]), "messages"),
        (_set(["messages"], {"role": "user"}), "messages"),
        (_set(["messages", 1], "hello"), "messages[1]"),
        (_delete(["messages", 0, "role"]), "messages[0].role"),
        (_set(["messages", 0, "role"], 1), "messages[0].role"),
        (_set(["messages", 0, "content"], 42), "messages[0].content"),
        (_set(["messages", 2, "content", 1], "text"), "messages[2].content[1]"),
        (_delete(["messages", 2, "content", 1, "type"]), "messages[2].content[1]"),
        (_set(["messages", 2, "content", 1, "type"], 7), "messages[2].content[1].type"),
        (_delete(["messages", 1, "content", 1, "text"]), "messages[1].content[1].text"),
        (_set(["messages", 1, "content", 0, "signature"], 5), "messages[1].content[0].signature"),
        (_set(["messages", 1, "content", 2, "id"], 5), "messages[1].content[2].id"),
        (_set(["messages", 2, "content", 0, "content"], 3), "messages[2].content[0].content"),
        (
            _set(["messages", 2, "content", 1, "content", 0], {"text": "x"}),
            "messages[2].content[1].content[0]",
        ),
        (_set(["messages", 2, "content", 1, "is_error"], "yes"), "messages[2].content[1].is_error"),
        (_set(["system"], 3), "system"),
        (_set(["system"], [{"text": "no type"}]), "system[0]"),
        (_set(["model"], 3), "model"),
        (_set(["stream"], "true"), "stream"),
        (_set(["tools"], {"name": "f"}), "tools"),
        (_set(["tools", 0], "weather"), "tools[0]"),
        (_set(["tools", 0, "input_schema"], "{}"), "tools[0].input_schema"),
        (_set(["tool_choice"], "auto"), "tool_choice"),
        (_set(["tool_choice"], {"type": "required"}), "tool_choice.type"),
        (
            _set(["tool_choice"], {"type": "auto", "disable_parallel_tool_use": 1}),
            "tool_choice.disable_parallel_tool_use",
        ),
    ],
)
def test_shape_errors_name_the_path(mutate: Callable[[dict[str, Any]], None], path: str) -> None:
    payload = base_request()
    CODEC.parse_request(copy.deepcopy(payload))  # the unmutated payload parses
    mutate(payload)
    with pytest.raises(WireFormatError) as caught:
        CODEC.parse_request(payload)
    assert caught.value.path == path
    assert str(caught.value).startswith(f"{path}: ")


@pytest.mark.parametrize("payload", [[], "body", None, 3])
def test_a_request_must_be_an_object(payload: Any) -> None:
    with pytest.raises(WireFormatError, match="must be a JSON object") as caught:
        CODEC.parse_request(payload)
    assert caught.value.path == ""


def test_renders_objects_built_by_code_in_the_natural_form() -> None:
    conversation = Conversation(
        dialect=ANTHROPIC_MESSAGES,
        model="claude",
        system=(TextBlock("Be brief."),),
        system_form="string",
        turns=(
            Turn(role="user", blocks=(TextBlock("hi"),), content_form="string"),
            Turn(
                role="assistant",
                blocks=(
                    ThinkingBlock(origin="reasoning_content", text="think", extra={"x": 1}),
                    ThinkingBlock(origin="reasoning", text="more", signature="sig"),
                    ToolCall(id="c1", name="f", arguments={"a": 1}, raw_arguments='{"a":1}'),
                ),
            ),
            Turn(
                role="user",
                blocks=(ToolResult(call_id="c1", content=(TextBlock("r"),), is_error=False),),
            ),
        ),
        tools=(ToolDef(name="f", description="d", parameters={"type": "object"}),),
        tool_choice=ToolChoice(mode="required"),
        parallel_tool_calls=False,
        extra={"max_tokens": 100},
    )
    assert CODEC.render_request(conversation) == {
        "model": "claude",
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [
                    # no signature to carry: none is invented
                    {"type": "thinking", "thinking": "think"},
                    {"type": "thinking", "thinking": "more", "signature": "sig"},
                    {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": 1}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "c1", "content": "r", "is_error": False}
                ],
            },
        ],
        "tools": [{"name": "f", "description": "d", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
        "max_tokens": 100,
    }


def test_parallel_off_without_tool_choice_becomes_auto_with_the_switch() -> None:
    conversation = Conversation(dialect=ANTHROPIC_MESSAGES, turns=(), parallel_tool_calls=False)
    assert CODEC.render_request(conversation)["tool_choice"] == {
        "type": "auto",
        "disable_parallel_tool_use": True,
    }


def test_string_form_falls_back_to_blocks_when_it_would_lose_something() -> None:
    turn = Turn(role="user", blocks=(TextBlock("a"), TextBlock("b")), content_form="string")
    conversation = Conversation(dialect=ANTHROPIC_MESSAGES, turns=(turn,))
    assert CODEC.render_request(conversation)["messages"][0]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
    ]


def test_tool_choice_from_another_dialect_keeps_no_foreign_keys() -> None:
    foreign = {"type": "function", "function": {"name": "f"}}
    conversation = Conversation(
        dialect=ANTHROPIC_MESSAGES,
        turns=(),
        tool_choice=ToolChoice(mode="tool", name="f", raw=foreign),
    )
    assert CODEC.render_request(conversation)["tool_choice"] == {"type": "tool", "name": "f"}
