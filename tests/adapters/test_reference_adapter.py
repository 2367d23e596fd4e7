"""The reference adapter as the harness loads and drives it: protocol, streams,
content it maps, and input it refuses."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import toolwire.harness
from tests.adapters.test_reference_support import (
    answer,
    corpus,
    payload_of,
    schema_violations,
)
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.adapters.reference import ConversionError, ReferenceAdapter
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, GEMINI, OPENAI_CHAT, QWEN_XML
from toolwire.harness.sse import render_sse

ADAPTER = ReferenceAdapter()


def test_load_adapter_reference_gives_the_declared_directions() -> None:
    loaded = load_adapter("reference")
    assert (loaded.name, loaded.version) == ("reference", toolwire.harness.__version__)
    pairs = {(d.source, d.target) for d in loaded.directions}
    assert pairs == {
        (OPENAI_CHAT, ANTHROPIC_MESSAGES),
        (ANTHROPIC_MESSAGES, OPENAI_CHAT),
        (ANTHROPIC_MESSAGES, DEEPSEEK_CHAT),
        (DEEPSEEK_CHAT, ANTHROPIC_MESSAGES),
        (QWEN_XML, OPENAI_CHAT),
        (GEMINI, OPENAI_CHAT),
        (OPENAI_CHAT, GEMINI),
        (GEMINI, ANTHROPIC_MESSAGES),
        (ANTHROPIC_MESSAGES, GEMINI),
        ("openai-responses", OPENAI_CHAT),
        (OPENAI_CHAT, "openai-responses"),
        ("openai-responses", ANTHROPIC_MESSAGES),
        (ANTHROPIC_MESSAGES, "openai-responses"),
    }
    assert len(loaded.directions) == 39  # request, response and stream for each of 13 pairs


def test_an_undeclared_direction_is_refused_with_the_supported_ones() -> None:
    with pytest.raises(ConversionError) as caught:
        ADAPTER.convert({}, "request", OPENAI_CHAT, DEEPSEEK_CHAT)
    message = str(caught.value)
    assert "does not convert request openai-chat -> deepseek-chat" in message
    assert "request:openai-chat->anthropic-messages" in message


def test_the_input_payload_is_never_mutated() -> None:
    case = corpus()["thinking/tool-use-anthropic"]
    for kind in ("request", "response"):
        payload = payload_of(case.interactions[1], kind)
        before = copy.deepcopy(payload)
        ADAPTER.convert(payload, kind, ANTHROPIC_MESSAGES, DEEPSEEK_CHAT)
        assert payload == before


# --- streams -------------------------------------------------------------------


def test_a_parallel_openai_stream_becomes_an_anthropic_stream_with_one_block_per_call() -> None:
    case = corpus()["streaming/parallel-openai"]
    events = payload_of(case.interactions[0], "stream")
    out = ADAPTER.convert(events, "stream", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert schema_violations(ANTHROPIC_MESSAGES, "stream", out) == []
    assert [e["event"] for e in out] == [e["data"]["type"] for e in out]
    assert out[0]["event"] == "message_start" and out[-1]["event"] == "message_stop"
    starts = [e["data"] for e in out if e["event"] == "content_block_start"]
    tool_starts = [s for s in starts if s["content_block"]["type"] == "tool_use"]
    assert len({s["index"] for s in tool_starts}) == len(tool_starts) == 2
    message = answer(ANTHROPIC_MESSAGES, "stream", out)
    source = answer(OPENAI_CHAT, "stream", events)
    calls = [(c.id, c.name, c.arguments) for c in message.message.tool_calls]
    assert calls == [(c.id, c.name, c.arguments) for c in source.message.tool_calls]
    assert message.stop_reason.raw == "tool_use"


def test_an_anthropic_stream_becomes_chunks_ending_in_done() -> None:
    case = corpus()["streaming/parallel-anthropic"]
    events = payload_of(case.interactions[0], "stream")
    out = ADAPTER.convert(events, "stream", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert out[-1] == {"event": None, "data": "[DONE]"}
    assert all(e["event"] is None for e in out)
    indices = {
        fragment["index"]
        for e in out[:-1]
        for choice in e["data"]["choices"]
        for fragment in choice["delta"].get("tool_calls", [])
    }
    assert indices == {0, 1}
    final = [e["data"] for e in out[:-1] if not e["data"]["choices"]]
    assert final and final[0]["usage"]["completion_tokens"] > 0


@pytest.mark.parametrize(
    ("case_id", "source", "target", "stop"),
    [
        ("truncated-stream/mid-string-value-anthropic", ANTHROPIC_MESSAGES, OPENAI_CHAT, "length"),
        (
            "truncated-stream/mid-string-value-anthropic",
            ANTHROPIC_MESSAGES,
            DEEPSEEK_CHAT,
            "length",
        ),
        ("truncated-stream/mid-string-value-openai", OPENAI_CHAT, ANTHROPIC_MESSAGES, "max_tokens"),
    ],
)
def test_a_call_cut_off_by_the_output_limit_passes_through_as_it_came(
    case_id: str, source: str, target: str, stop: str
) -> None:
    """Its arguments are not JSON and cannot be completed without guessing: the
    converter passes the text on, beside the same stop reason, and both sides
    read it as the SDKs do (what was complete is kept: partial_json.py)."""
    events = payload_of(corpus()[case_id].interactions[0], "stream")
    out = ADAPTER.convert(events, "stream", source, target)
    given = answer(source, "stream", events).message.tool_calls[-1]
    got = answer(target, "stream", out)
    assert got.stop_reason.raw == stop
    call = got.message.tool_calls[-1]
    assert (call.name, call.arguments) == (given.name, given.arguments)


def test_broken_arguments_are_still_refused_when_the_output_was_not_cut_off() -> None:
    events = payload_of(
        corpus()["truncated-stream/mid-string-value-openai"].interactions[0], "stream"
    )
    # The same stream, ended as if the call were complete.
    ended = json.loads(json.dumps(events).replace('"length"', '"tool_calls"'))
    with pytest.raises(ConversionError, match="not valid JSON"):
        ADAPTER.convert(ended, "stream", OPENAI_CHAT, ANTHROPIC_MESSAGES)


def test_a_stream_may_also_be_given_as_event_stream_text() -> None:
    case = corpus()["thinking/stream-deepseek"]
    interaction = case.interactions[0]
    as_list = ADAPTER.convert(
        payload_of(interaction, "stream"), "stream", DEEPSEEK_CHAT, ANTHROPIC_MESSAGES
    )
    as_text = ADAPTER.convert(
        render_sse(interaction.response_events()), "stream", DEEPSEEK_CHAT, ANTHROPIC_MESSAGES
    )
    assert as_text == as_list


def test_a_malformed_stream_payload_is_refused() -> None:
    with pytest.raises(ConversionError, match="stream event 0 has no data"):
        ADAPTER.convert([{"event": None}], "stream", OPENAI_CHAT, ANTHROPIC_MESSAGES)


def test_a_streamed_request_asks_for_usage_in_the_chat_stream() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "stream": True,
        "messages": [{"role": "user", "content": "Hi"}],
    }
    out = ADAPTER.convert(body, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert (out["stream"], out["stream_options"]) == (True, {"include_usage": True})


# --- content -------------------------------------------------------------------


def _user(content: Any) -> dict[str, Any]:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": content}]}


def test_images_map_both_ways() -> None:
    parts = [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "image_url", "image_url": {"url": "https://example.org/cat.jpg"}},
    ]
    out = ADAPTER.convert(_user(parts), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert out["messages"][0]["content"] == [
        {"type": "text", "text": "What is this?"},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
        },
        {"type": "image", "source": {"type": "url", "url": "https://example.org/cat.jpg"}},
    ]
    back = ADAPTER.convert(out, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert back["messages"][0]["content"] == parts


def test_content_without_an_equivalent_is_refused_naming_the_message() -> None:
    audio = [{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}]
    with pytest.raises(ConversionError, match=r"messages\[0\]: a 'input_audio' block"):
        ADAPTER.convert(_user(audio), "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)


def test_an_image_inside_a_tool_result_is_refused_for_chat_completions() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.org/a.png"}}
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": "Screenshot?"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "shot", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [image]}],
            },
        ],
    }
    with pytest.raises(ConversionError, match=r"messages\[2\]: a tool_result holding images"):
        ADAPTER.convert(body, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)


def test_several_choices_cannot_become_one_anthropic_message() -> None:
    choice = {"index": 0, "message": {"role": "assistant", "content": "A"}, "finish_reason": "stop"}
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [choice, {**choice, "index": 1}],
    }
    with pytest.raises(ConversionError, match="has 2 choices; anthropic-messages carries one"):
        ADAPTER.convert(response, "response", OPENAI_CHAT, ANTHROPIC_MESSAGES)


def test_sampling_parameters_map_within_each_api_s_range() -> None:
    body = {**_user("Hi"), "temperature": 1.5, "top_p": 0.9, "stop": "END", "user": "u-1"}
    body.update({"seed": 7, "n": 1, "response_format": {"type": "text"}})
    out = ADAPTER.convert(body, "request", OPENAI_CHAT, ANTHROPIC_MESSAGES)
    assert {k: v for k, v in out.items() if k not in ("model", "messages")} == {
        "max_tokens": 4096,
        "temperature": 1,  # Anthropic's range ends at 1
        "top_p": 0.9,
        "stop_sequences": ["END"],
        "metadata": {"user_id": "u-1"},
    }
    back = ADAPTER.convert(out, "request", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert (back["stop"], back["user"], back["max_completion_tokens"]) == (["END"], "u-1", 4096)


def test_an_anthropic_response_becomes_a_complete_chat_completion() -> None:
    case = corpus()["mixed-text/text-then-call-anthropic"]
    source = payload_of(case.interactions[0], "response")
    out = ADAPTER.convert(source, "response", ANTHROPIC_MESSAGES, OPENAI_CHAT)
    assert schema_violations(OPENAI_CHAT, "response", out) == []
    assert (out["id"], out["object"], out["created"]) == (source["id"], "chat.completion", 0)
    message = out["choices"][0]["message"]
    assert message["content"] == source["content"][0]["text"]
    assert (
        json.loads(message["tool_calls"][0]["function"]["arguments"])
        == source["content"][1]["input"]
    )
