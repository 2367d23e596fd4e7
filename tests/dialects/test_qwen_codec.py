"""The qwen-xml codec: Chat Completions envelopes whose assistant text holds
Qwen3-Coder XML calls. Parse, exact round-trip, streams, code-built calls."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.dialects.test_qwen_samples import (
    JSON_BODY,
    MISSING_OPENER,
    PARALLEL,
    SIMPLE,
    TOOLS,
    WEATHER,
    WEATHER_CALL,
)
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml import QWEN_XML_CODEC, REJECTED_CALL, render_call_xml
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    QWEN_XML,
    Choice,
    OpaqueBlock,
    Response,
    SSEEvent,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolDef,
    Turn,
)

codec = QWEN_XML_CODEC
MODEL = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
WEATHER_TOOL_JSON = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": WEATHER.parameters,
    },
}


def response_body(content: Any, **message_fields: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": content, **message_fields}
    return {
        "id": "chatcmpl-q1",
        "object": "chat.completion",
        "created": 1760000000,
        "model": MODEL,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 40, "total_tokens": 160},
    }


def request_body() -> dict[str, Any]:
    return {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Weather in Beijing and Paris? Mention <tool_call> too."},
            {"role": "assistant", "content": PARALLEL},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            {"role": "tool", "tool_call_id": "call_2", "content": "rain"},
            {"role": "assistant", "content": MISSING_OPENER},
            {"role": "user", "content": "Thanks."},
        ],
        "tools": [WEATHER_TOOL_JSON],
        "temperature": 0.7,
        "stream": False,
    }


def test_registry_returns_this_codec() -> None:
    assert get_codec("qwen-xml") is codec
    assert codec.name == QWEN_XML == "qwen-xml"


# -- responses ------------------------------------------------------------------


def test_response_text_becomes_text_and_calls() -> None:
    payload = response_body(SIMPLE)
    response = codec.parse_response(payload, tools=TOOLS)
    assert response.dialect == QWEN_XML
    assert response.message.blocks == (
        TextBlock("Let me check.\n"),
        ToolCall(
            id=None,
            name="get_weather",
            arguments={"city": "Beijing", "days": 3},
            raw_arguments=WEATHER_CALL,
        ),
    )
    assert response.stop_reason == StopReason(raw="stop", canonical="end_turn")
    assert codec.render_response(response) == payload


def test_markup_left_in_content_by_a_server_without_tool_parser() -> None:
    # The shape of vllm-project/vllm#22975: text then a call in content,
    # tool_calls null, finish_reason "stop". The regex keeps its backslash.
    grep = ToolDef(
        name="GrepTool",
        parameters={
            "type": "object",
            "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}},
        },
    )
    content = (
        "Let me grep for the implementation of BaseService.\n\n<tool_call>\n<function=GrepTool>\n"
        "<parameter=pattern>\nclass BaseService\\(\n</parameter>\n"
        "<parameter=path>\n.\n</parameter>\n</function>\n</tool_call>"
    )
    payload = response_body(content, tool_calls=None)
    response = codec.parse_response(payload, tools=(grep,))
    (call,) = response.message.tool_calls
    assert call.arguments == {"pattern": "class BaseService\\(", "path": "."}
    assert codec.render_response(response) == payload


def test_response_without_tools_keeps_string_values() -> None:
    response = codec.parse_response(response_body(SIMPLE))
    assert response.message.tool_calls[0].arguments == {"city": "Beijing", "days": "3"}


def test_rejected_calls_become_opaque_blocks_and_round_trip() -> None:
    content = MISSING_OPENER + "\n" + JSON_BODY
    payload = response_body(content)
    response = codec.parse_response(payload, tools=TOOLS)
    blocks = response.message.blocks
    assert response.message.tool_calls == ()  # nothing executable
    rejected = [b for b in blocks if isinstance(b, OpaqueBlock)]
    assert [b.type for b in rejected] == [REJECTED_CALL, REJECTED_CALL]
    first = rejected[0].raw
    assert first["name"] == "Glob"
    assert [i["code"] for i in first["issues"]] == ["missing_opener", "unknown_tool"]
    assert first["text"] == MISSING_OPENER[MISSING_OPENER.index("<function=") :]
    assert rejected[1].raw["issues"][0]["code"] == "malformed_markup"
    pieces = [b for b in blocks if isinstance(b, TextBlock | OpaqueBlock)]
    assert len(pieces) == len(blocks)
    texts = [b.text if isinstance(b, TextBlock) else b.raw["text"] for b in pieces]
    assert "".join(texts) == content
    assert codec.render_response(response) == payload


@pytest.mark.parametrize("content", ["", None, "Just text, no call."])
def test_contents_without_calls_round_trip(content: str | None) -> None:
    payload = response_body(content)
    response = codec.parse_response(payload, tools=TOOLS)
    assert response.message.tool_calls == ()
    assert codec.render_response(response) == payload


def test_native_tool_calls_from_a_parsing_server_stay_native() -> None:
    native = {
        "id": "call_abc",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
    }
    payload = response_body("Checking.\n" + WEATHER_CALL, tool_calls=[native])
    response = codec.parse_response(payload, tools=TOOLS)
    calls = response.message.tool_calls
    assert [c.id for c in calls] == [None, "call_abc"]
    assert calls[1].arguments == {"city": "Oslo"}
    assert codec.render_response(response) == payload


def test_reasoning_and_multiple_choices_round_trip() -> None:
    payload = response_body(SIMPLE, reasoning_content="Need the weather.")
    second = copy.deepcopy(payload["choices"][0])
    second["index"] = 1
    second["message"]["content"] = JSON_BODY
    payload["choices"].append(second)
    response = codec.parse_response(payload, tools=TOOLS)
    assert isinstance(response.choices[0].message.blocks[0], ThinkingBlock)
    assert len(response.choices[0].message.tool_calls) == 1
    thinking, rejected = response.choices[1].message.blocks
    assert isinstance(thinking, ThinkingBlock)
    assert isinstance(rejected, OpaqueBlock)
    assert codec.render_response(response) == payload


def test_parse_does_not_mutate_the_payload() -> None:
    payload = response_body(PARALLEL)
    before = copy.deepcopy(payload)
    codec.render_response(codec.parse_response(payload, tools=TOOLS))
    assert payload == before


# -- requests -------------------------------------------------------------------


def test_request_uses_its_own_tools_and_round_trips() -> None:
    payload = request_body()
    conversation = codec.parse_request(payload)
    assert conversation.dialect == QWEN_XML
    assistant = conversation.turns[2]
    assert [c.arguments for c in assistant.tool_calls] == [
        {"city": "Beijing"},
        {"city": "Paris", "units": "celsius"},
    ]
    later = conversation.turns[5]
    assert later.tool_calls == ()
    assert any(isinstance(b, OpaqueBlock) and b.type == REJECTED_CALL for b in later.blocks)
    # User text is never read as markup.
    assert conversation.turns[1].blocks == (TextBlock(payload["messages"][1]["content"]),)
    assert codec.render_request(conversation) == payload


def test_request_with_native_tool_calls_in_history_round_trips() -> None:
    payload = request_body()
    payload["messages"][2] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Beijing"}'},
            }
        ],
    }
    payload["messages"].pop(4)
    conversation = codec.parse_request(payload)
    assert conversation.turns[2].tool_calls[0].id == "call_1"
    assert codec.render_request(conversation) == payload


# -- streams --------------------------------------------------------------------

ENVELOPE = {"id": "chatcmpl-q1", "object": "chat.completion.chunk", "created": 1760000000}


def sse(*deltas: dict[str, Any], finish: str = "stop") -> list[SSEEvent]:
    def chunk(delta: dict[str, Any], reason: str | None) -> SSEEvent:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": reason}
        return SSEEvent(data=json.dumps({**ENVELOPE, "model": MODEL, "choices": [choice]}))

    events = [chunk({"role": "assistant", "content": ""}, None)]
    events += [chunk(delta, None) for delta in deltas]
    events += [chunk({}, finish), SSEEvent(data="[DONE]")]
    return events


def test_stream_split_inside_tags_reassembles_to_the_calls() -> None:
    text = SIMPLE
    cuts = [5, text.index("<tool_call>") + 3, text.index("<parameter=days") + 6, len(text) - 4]
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    assert "".join(pieces) == text
    transcript = codec.parse_stream(sse(*({"content": p} for p in pieces)), tools=TOOLS)
    assert transcript.dialect == QWEN_XML
    assert transcript.issues == ()
    non_streamed = codec.parse_response(response_body(text), tools=TOOLS)
    assert transcript.response.message.blocks == non_streamed.message.blocks
    assert transcript.response.dialect == QWEN_XML


def test_stream_with_a_rejected_call_keeps_its_text() -> None:
    text = "One moment.\n" + JSON_BODY
    transcript = codec.parse_stream(sse({"content": text[:20]}, {"content": text[20:]}))
    blocks = transcript.response.message.blocks
    assert blocks[0] == TextBlock("One moment.\n")
    assert isinstance(blocks[1], OpaqueBlock)
    assert blocks[1].raw["text"] == JSON_BODY


def test_render_stream_then_parse_stream_gives_the_response_back() -> None:
    response = codec.parse_response(response_body(PARALLEL), tools=TOOLS)
    events = codec.render_stream(response)
    streamed = "".join(
        json.loads(e.data)["choices"][0]["delta"].get("content") or ""
        for e in events
        if e.data != "[DONE]" and json.loads(e.data)["choices"]
    )
    assert streamed == PARALLEL  # the markup travels as content deltas
    again = codec.parse_stream(events, tools=TOOLS).response
    assert again.message.blocks == response.message.blocks
    # The envelope differs (chunks have no "object": "chat.completion"); the choices do not.
    assert codec.render_response(again)["choices"] == codec.render_response(response)["choices"]


# -- calls built by code ----------------------------------------------------------


def built_response(*blocks: Any) -> Response:
    turn = Turn(role="assistant", blocks=tuple(blocks))
    choice = Choice(index=0, message=turn, stop_reason=StopReason("stop", "end_turn"))
    return Response(dialect=QWEN_XML, choices=(choice,), id="r1", model=MODEL)


def test_code_built_calls_are_written_in_the_template_form() -> None:
    arguments = {"city": "Beijing", "days": 3, "detailed": True, "tags": ["a"], "note": None}
    call = ToolCall(id="call_9", name="get_weather", arguments=arguments)
    body = codec.render_response(built_response(TextBlock("Let me check."), call, call))
    content = body["choices"][0]["message"]["content"]
    one = (
        "<tool_call>\n<function=get_weather>\n"
        "<parameter=city>\nBeijing\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n"
        "<parameter=detailed>\ntrue\n</parameter>\n"
        '<parameter=tags>\n["a"]\n</parameter>\n'
        "<parameter=note>\nnull\n</parameter>\n"
        "</function>\n</tool_call>"
    )
    assert content == "Let me check.\n" + one + "\n" + one
    assert "tool_calls" not in body["choices"][0]["message"]
    parsed = codec.parse_response(body).message.tool_calls
    assert len(parsed) == 2  # and it reads back as two valid calls


def test_code_built_values_read_back_equal_with_the_schema() -> None:
    arguments = {"city": "Line one\nline two\n", "days": 14, "units": "celsius", "detailed": False}
    call = ToolCall(id=None, name="get_weather", arguments=arguments)
    body = codec.render_response(built_response(call))
    (read,) = codec.parse_response(body, tools=TOOLS).message.tool_calls
    assert read.arguments == arguments
    assert read.raw_arguments == render_call_xml(call)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (ToolCall(id=None, name=None, arguments={}), "cannot be written"),
        (ToolCall(id=None, name="bad>name", arguments={}), "cannot be written"),
        (ToolCall(id=None, name="f", arguments=None), "as an object"),
        (ToolCall(id=None, name="f", arguments={"v": "x</parameter>y"}), "</parameter>"),
        (ToolCall(id=None, name="f", arguments={"a\nb": 1}), "parameter name"),
    ],
)
def test_calls_that_qwen_xml_cannot_carry_are_refused(call: ToolCall, fragment: str) -> None:
    with pytest.raises(WireFormatError, match=fragment) as caught:
        codec.render_response(built_response(call))
    assert caught.value.path.startswith("choices[0].message")


def test_rejected_block_without_text_is_refused() -> None:
    with pytest.raises(WireFormatError, match="raw"):
        codec.render_response(built_response(OpaqueBlock(type=REJECTED_CALL, raw={})))


def test_real_qwen_recordings_round_trip_through_this_codec() -> None:
    from tests.support.real_transcripts import load_real_transcripts

    recordings = [
        r
        for r in load_real_transcripts()
        if "qwen" in r.name and r.kind == "response" and r.status_code == 200
    ]
    if not recordings:
        pytest.skip("no Qwen response recordings in the real transcripts")
    for recording in recordings:
        request = codec.parse_request(recording.request_body)
        assert codec.render_request(request) == recording.request_body, recording.name
        response = codec.parse_response(recording.response_body, tools=request.tools)
        assert codec.render_response(response) == recording.response_body, recording.name
