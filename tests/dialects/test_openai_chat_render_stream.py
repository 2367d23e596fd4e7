"""openai-chat render_stream: the chunk sequence, and parse_stream(render_stream(r)) ~ r."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.harness.dialects.openai_chat import DEEPSEEK_CHAT_CODEC, OPENAI_CHAT_CODEC
from toolwire.harness.dialects.openai_chat.render_stream import render_stream
from toolwire.harness.model import (
    Choice,
    Response,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
    Usage,
)

codec = OPENAI_CHAT_CODEC


def canonical(response: Response) -> tuple[Any, ...]:
    """What a stream must carry over: blocks, stop reasons, usage, id, model."""
    choices = []
    for choice in response.choices:
        blocks: list[tuple[Any, ...]] = []
        for block in choice.message.blocks:
            if isinstance(block, TextBlock):
                blocks.append(("text", block.text))
            elif isinstance(block, ThinkingBlock):
                blocks.append(("thinking", block.origin, block.text))
            elif isinstance(block, ToolCall):
                arguments = json.dumps(block.arguments, sort_keys=True)
                broken = block.arguments_error is not None
                blocks.append(("call", block.id, block.name, arguments, broken))
            else:
                blocks.append(("other", type(block).__name__))
        choices.append((choice.index, choice.message.role, tuple(blocks), choice.stop_reason))
    usage = response.usage
    counts = None if usage is None else (usage.input_tokens, usage.output_tokens)
    return tuple(choices), counts, response.id, response.model


def _chunks(response: Response, **kwargs: Any) -> list[Any]:
    events = render_stream(response, **kwargs)
    assert events[-1].data == "[DONE]"
    return [json.loads(e.data) for e in events[:-1]]


TOOL_RESPONSE = codec.parse_response(
    {
        "id": "chatcmpl-r1",
        "object": "chat.completion",
        "created": 1760000002,
        "model": "gpt-test-2025",
        "system_fingerprint": "fp_r",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_a",
                            "type": "function",
                            "function": {"name": "f", "arguments": '{"x": 1}'},
                        },
                        {
                            "id": "call_b",
                            "type": "function",
                            "function": {"name": "g", "arguments": "{}"},
                        },
                    ],
                    "refusal": None,
                },
                "logprobs": None,
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28},
    }
)


def test_tool_call_response_streams_like_openai() -> None:
    chunks = _chunks(TOOL_RESPONSE)
    header = {
        "id": "chatcmpl-r1",
        "object": "chat.completion.chunk",
        "created": 1760000002,
        "model": "gpt-test-2025",
        "system_fingerprint": "fp_r",
    }
    for c in chunks:
        assert {k: c[k] for k in header} == header
    deltas = [c["choices"][0]["delta"] for c in chunks[:-1]]
    assert deltas == [
        {"role": "assistant", "content": None, "refusal": None},
        {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "f", "arguments": ""},
                }
            ]
        },
        {"tool_calls": [{"index": 0, "function": {"arguments": '{"x": 1}'}}]},
        {
            "tool_calls": [
                {
                    "index": 1,
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "g", "arguments": ""},
                }
            ]
        },
        {"tool_calls": [{"index": 1, "function": {"arguments": "{}"}}]},
        {},
    ]
    finish_reasons = [c["choices"][0]["finish_reason"] for c in chunks[:-1]]
    assert finish_reasons == [None] * 5 + ["tool_calls"]
    assert all(c["usage"] is None for c in chunks[:-1])
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"] == {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28}


def test_text_response_opens_with_empty_content_and_has_no_usage_chunk() -> None:
    message = Turn(
        role="assistant",
        blocks=(ThinkingBlock(origin="reasoning_content", text="Think."), TextBlock("Hello there")),
        content_form="string",
    )
    response = Response(
        dialect="deepseek-chat",
        choices=(Choice(0, message, StopReason("stop", "end_turn")),),
        id="r2",
        model="deepseek-test",
    )
    chunks = _chunks(response, fragment_size=5)
    deltas = [c["choices"][0]["delta"] for c in chunks]
    assert deltas == [
        {"role": "assistant", "content": ""},
        {"reasoning_content": "Think"},
        {"reasoning_content": "."},
        {"content": "Hello"},
        {"content": " ther"},
        {"content": "e"},
        {},
    ]
    assert all("usage" not in c for c in chunks)
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


def test_events_are_compact_json() -> None:
    event = render_stream(TOOL_RESPONSE)[0]
    assert ", " not in event.data and '": ' not in event.data


def test_code_built_calls_stream_natural_json_arguments() -> None:
    message = Turn(
        role="assistant",
        blocks=(ToolCall(id="toolu_1", name="f", arguments={"city": "Zürich"}),),
    )
    response = Response(
        dialect="anthropic-messages",
        choices=(Choice(0, message, StopReason("tool_use", "tool_use")),),
    )
    chunks = _chunks(response)
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": None}
    assert chunks[2]["choices"][0]["delta"]["tool_calls"][0]["function"] == {
        "arguments": '{"city": "Zürich"}'
    }
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
    reparsed = codec.parse_stream(render_stream(response)).response
    assert reparsed.message.tool_calls[0].arguments == {"city": "Zürich"}
    assert reparsed.message.content_form == "null"


THINKING_TEXT_CALLS = Response(
    dialect="deepseek-chat",
    id="r3",
    model="deepseek-test",
    choices=(
        Choice(
            0,
            Turn(
                role="assistant",
                blocks=(
                    ThinkingBlock(origin="reasoning_content", text=""),
                    TextBlock("Two lookups."),
                    ToolCall("c1", "f", {"a": [1, 2.5, None]}, '{"a": [1, 2.5, null]}'),
                    ToolCall("c2", "f", None, "{bad", "not JSON"),
                ),
                content_form="string",
            ),
            StopReason("tool_calls", "tool_use"),
        ),
        Choice(
            1,
            Turn(
                role="assistant",
                blocks=(ThinkingBlock(origin="reasoning", text="hm"), TextBlock("")),
                content_form="string",
            ),
            StopReason("length", "max_tokens"),
        ),
    ),
    usage=Usage(3, 4, {"prompt_tokens": 3, "completion_tokens": 4}),
)


@pytest.mark.parametrize("fragment_size", [None, 1, 3])
@pytest.mark.parametrize("response", [TOOL_RESPONSE, THINKING_TEXT_CALLS], ids=["tools", "mixed"])
def test_parse_stream_of_render_stream_keeps_canonical_content(
    response: Response, fragment_size: int | None
) -> None:
    transcript = DEEPSEEK_CHAT_CODEC.parse_stream(
        render_stream(response, fragment_size=fragment_size)
    )
    assert transcript.issues == ()
    assert canonical(transcript.response) == canonical(response)
    assert [c.raw_arguments for c in transcript.response.message.tool_calls] == [
        c.raw_arguments for c in response.message.tool_calls
    ]


def test_codec_method_renders_one_piece_per_field() -> None:
    assert codec.render_stream(THINKING_TEXT_CALLS) == render_stream(THINKING_TEXT_CALLS)


json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(max_size=40),
    reasoning=st.none() | st.text(max_size=40),
    arguments=st.lists(st.dictionaries(st.text(max_size=6), json_values, max_size=4), max_size=3),
    fragment_size=st.integers(min_value=1, max_value=7),
)
def test_any_fragmentation_reassembles_the_same_message(
    text: str, reasoning: str | None, arguments: list[dict[str, Any]], fragment_size: int
) -> None:
    blocks: list[Any] = []
    if reasoning is not None:
        blocks.append(ThinkingBlock(origin="reasoning_content", text=reasoning))
    blocks.append(TextBlock(text))
    blocks.extend(ToolCall(f"call_{i}", f"tool_{i}", args) for i, args in enumerate(arguments))
    response = Response(
        dialect="openai-chat",
        choices=(
            Choice(0, Turn("assistant", tuple(blocks), "string"), StopReason("stop", "end_turn")),
        ),
        usage=Usage(1, 2),
    )
    transcript = codec.parse_stream(render_stream(response, fragment_size=fragment_size))
    assert transcript.issues == ()
    assert canonical(transcript.response) == canonical(response)
