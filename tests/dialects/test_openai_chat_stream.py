"""openai-chat stream reassembly: shapes, real-server quirks and issues."""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.dialects.openai_chat import DEEPSEEK_CHAT_CODEC, OPENAI_CHAT_CODEC
from toolwire.harness.model import (
    SSEEvent,
    StopReason,
    StreamTranscript,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Usage,
)

codec = OPENAI_CHAT_CODEC
ENVELOPE = {
    "id": "chatcmpl-s1",
    "object": "chat.completion.chunk",
    "created": 1760000001,
    "model": "gpt-test-2025",
    "system_fingerprint": "fp_s",
}


def chunk(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> dict[str, Any]:
    choice = {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish}
    return {**ENVELOPE, "choices": [choice]}


def usage_chunk(prompt: int, completion: int) -> dict[str, Any]:
    usage = {"prompt_tokens": prompt, "completion_tokens": completion}
    return {**ENVELOPE, "choices": [], "usage": {**usage, "total_tokens": prompt + completion}}


def start(index: int, call_id: str, name: str, arguments: str = "") -> dict[str, Any]:
    function = {"name": name, "arguments": arguments}
    return {"index": index, "id": call_id, "type": "function", "function": function}


def piece(index: int, arguments: str, **fields: Any) -> dict[str, Any]:
    return {"index": index, **fields, "function": {"arguments": arguments}}


def calls(*fragments: dict[str, Any]) -> dict[str, Any]:
    return chunk({"tool_calls": list(fragments)})


def stream(*chunks: dict[str, Any] | str, done: bool = True) -> StreamTranscript:
    events = [SSEEvent(data=c if isinstance(c, str) else json.dumps(c)) for c in chunks]
    if done:
        events.append(SSEEvent(data="[DONE]"))
    return codec.parse_stream(events)


def codes(transcript: StreamTranscript) -> list[str]:
    return [issue.code for issue in transcript.issues]


def summary(transcript: StreamTranscript) -> list[tuple[str | None, str | None, Any, str | None]]:
    return [
        (c.id, c.name, c.arguments, c.raw_arguments) for c in transcript.response.message.tool_calls
    ]


def test_text_stream_equals_the_non_streamed_response() -> None:
    transcript = stream(
        chunk({"role": "assistant", "content": "", "refusal": None}),
        chunk({"content": "Hello"}),
        chunk({"content": ", world"}),
        chunk({}, "stop"),
        usage_chunk(9, 3),
    )
    assert codes(transcript) == []
    response = transcript.response
    non_streamed = codec.parse_response(
        {
            "id": "chatcmpl-s1",
            "object": "chat.completion",
            "created": 1760000001,
            "model": "gpt-test-2025",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "Hello, world", "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12},
        }
    )
    assert response.choices == non_streamed.choices
    assert response.usage == non_streamed.usage
    assert (response.id, response.model) == (non_streamed.id, non_streamed.model)
    assert response.extra == {"created": 1760000001, "system_fingerprint": "fp_s"}


def test_tool_call_stream_equals_the_non_streamed_message() -> None:
    transcript = stream(
        chunk({"role": "assistant", "content": None, "tool_calls": [start(0, "call_1", "f")]}),
        calls(piece(0, '{"ci')),
        calls(piece(0, 'ty": "Oslo"}')),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == []
    non_streamed = codec.parse_response(
        {
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "f", "arguments": '{"city": "Oslo"}'},
                            }
                        ],
                    },
                    "logprobs": None,
                    "finish_reason": "tool_calls",
                }
            ]
        }
    )
    assert transcript.response.message == non_streamed.message
    assert transcript.response.stop_reason == StopReason("tool_calls", "tool_use")
    assert transcript.response.usage is None


def test_repeated_empty_ids_on_later_fragments_are_not_new_calls() -> None:
    transcript = stream(
        calls(start(0, "call_1", "f")),
        calls(piece(0, '{"a":', id="", type="function")),
        calls(piece(0, "1}", id="")),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == []
    assert summary(transcript) == [("call_1", "f", {"a": 1}, '{"a":1}')]


def test_same_id_and_name_repeated_on_every_fragment() -> None:
    # OpenRouter-style: each fragment repeats the full header.
    transcript = stream(
        calls(start(0, "0", "llm_version", "")),
        calls(start(0, "0", "llm_version", "{}")),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == []
    assert summary(transcript) == [("0", "llm_version", {}, "{}")]


def test_indices_starting_at_one_and_a_trailing_empty_fragment() -> None:
    # Reassembled by index, and each call that opens off the next free index
    # noted (stream.call_index judges it); the empty fragment is no issue.
    transcript = stream(
        calls(start(1, "call_a", "f", '{"x"')),
        calls(piece(1, ": 1}")),
        calls(piece(1, "")),
        calls(start(2, "call_b", "g", "{}")),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == ["index_not_dense", "index_not_dense"]
    assert summary(transcript) == [
        ("call_a", "f", {"x": 1}, '{"x": 1}'),
        ("call_b", "g", {}, "{}"),
    ]


def test_usage_null_on_every_chunk_and_a_usage_only_last_chunk() -> None:
    with_nulls = [{**chunk({"content": "hi"}), "usage": None}, {**chunk({}, "stop"), "usage": None}]
    transcript = stream(*with_nulls, usage_chunk(4, 1))
    assert codes(transcript) == []
    assert transcript.response.usage == Usage(
        input_tokens=4,
        output_tokens=1,
        raw={"prompt_tokens": 4, "completion_tokens": 1, "total_tokens": 5},
    )
    assert transcript.response.message.text == "hi"


def test_a_chunk_with_content_and_a_tool_call_fragment_keeps_both() -> None:
    transcript = stream(
        chunk({"role": "assistant", "content": "Looking", "tool_calls": [start(0, "c1", "f")]}),
        chunk({"content": " it up", "tool_calls": [piece(0, "{}")]}),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == []
    message = transcript.response.message
    assert message.content_form == "string"
    assert message.blocks == (
        TextBlock("Looking it up"),
        ToolCall("c1", "f", {}, "{}", None, {"type": "function"}),
    )


def test_two_parallel_calls_with_interleaved_fragments() -> None:
    transcript = stream(
        calls(start(0, "call_a", "weather")),
        calls(start(1, "call_b", "time")),
        calls(piece(0, '{"city":')),
        calls(piece(1, '{"tz":')),
        calls(piece(1, '"CET"}'), piece(0, '"Rome"}')),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == []
    assert summary(transcript) == [
        ("call_a", "weather", {"city": "Rome"}, '{"city":"Rome"}'),
        ("call_b", "time", {"tz": "CET"}, '{"tz":"CET"}'),
    ]


def test_index_collision_is_reported_and_arguments_never_merge() -> None:
    # The known converter bug: every call streamed at index 0.
    transcript = stream(
        calls(start(0, "call_a", "f", '{"n": 1}')),
        calls(start(0, "call_b", "f", '{"n":')),
        calls(piece(0, " 2}")),
        chunk({}, "tool_calls"),
    )
    assert codes(transcript) == ["index_collision"]
    assert transcript.issues[0].event_index == 1
    assert "call_a" in transcript.issues[0].message
    assert "call_b" in transcript.issues[0].message
    assert summary(transcript) == [
        ("call_a", "f", {"n": 1}, '{"n": 1}'),
        ("call_b", "f", {"n": 2}, '{"n": 2}'),
    ]


def test_missing_done_is_reported_once_for_the_whole_stream() -> None:
    transcript = stream(chunk({"content": "cut"}), done=False)
    assert codes(transcript) == ["missing_done"]
    assert transcript.issues[0].event_index is None
    assert transcript.response.message.text == "cut"
    assert transcript.response.stop_reason == StopReason(None, "unknown")


def test_events_after_done_are_reported_and_ignored() -> None:
    transcript = stream(
        chunk({"content": "a"}), chunk({}, "stop"), "[DONE]", chunk({"content": "b"}), done=False
    )
    assert codes(transcript) == ["after_done"]
    assert transcript.issues[0].event_index == 3
    assert transcript.response.message.text == "a"


def test_data_that_is_not_json_is_reported_and_skipped() -> None:
    transcript = stream(chunk({"content": "a"}), '{"choices": [', chunk({"content": "b"}))
    assert codes(transcript) == ["invalid_json"]
    assert transcript.issues[0].event_index == 1
    assert transcript.response.message.text == "ab"


def test_fragment_for_a_new_index_without_id_or_name() -> None:
    transcript = stream(calls(piece(0, '{"a": 1}')), chunk({}, "tool_calls"))
    assert codes(transcript) == ["fragment_without_start"]
    assert summary(transcript) == [(None, None, {"a": 1}, '{"a": 1}')]


def test_fragment_without_index_is_reported_and_placed_by_position() -> None:
    fragment = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    transcript = stream(calls(fragment), chunk({}, "tool_calls"))
    assert codes(transcript) == ["fragment_without_index"]
    assert summary(transcript) == [("c1", "f", {}, "{}")]


def test_a_changed_name_is_reported_and_the_first_kept() -> None:
    transcript = stream(calls(start(0, "c1", "f")), calls({"index": 0, "function": {"name": "g"}}))
    assert codes(transcript) == ["name_conflict"]
    assert summary(transcript)[0][1] == "f"


def test_reassembled_invalid_arguments_keep_the_text_and_an_error() -> None:
    transcript = stream(calls(start(0, "c1", "f", '{"a": ')), chunk({}, "tool_calls"))
    (call,) = transcript.response.message.tool_calls
    assert call.arguments is None
    assert call.raw_arguments == '{"a": '
    assert call.arguments_error is not None


def test_reasoning_content_then_text_as_deepseek_streams_it() -> None:
    events = [
        chunk({"role": "assistant", "content": None, "reasoning_content": ""}),
        chunk({"content": None, "reasoning_content": "Greet"}),
        chunk({"content": None, "reasoning_content": " back."}),
        chunk({"content": "Hi!", "reasoning_content": None}),
        chunk({"content": "", "reasoning_content": None}, "stop"),
    ]
    transcript = DEEPSEEK_CHAT_CODEC.parse_stream(
        [SSEEvent(data=json.dumps(e)) for e in events] + [SSEEvent(data="[DONE]")]
    )
    assert transcript.dialect == "deepseek-chat"
    assert transcript.response.dialect == "deepseek-chat"
    assert transcript.issues == ()
    assert transcript.response.message.blocks == (
        ThinkingBlock(origin="reasoning_content", text="Greet back."),
        TextBlock("Hi!"),
    )


def test_reasoning_field_as_groq_streams_it() -> None:
    transcript = stream(
        chunk({"role": "assistant", "content": ""}),
        chunk({"reasoning": "Need", "channel": "analysis"}),
        chunk({"reasoning": " a tool.", "channel": "analysis"}),
        calls(start(0, "fc_1", "f", "{}")),
        chunk({}, "tool_calls"),
    )
    message = transcript.response.message
    assert message.blocks[:2] == (
        ThinkingBlock(origin="reasoning", text="Need a tool."),
        TextBlock(""),
    )
    assert message.extra == {"channel": "analysis"}


def test_content_form_is_null_when_no_content_delta_was_a_string() -> None:
    transcript = stream(chunk({"role": "assistant", "content": None}), chunk({}, "stop"))
    assert transcript.response.message.content_form == "null"
    assert transcript.response.message.blocks == ()


def test_finish_reason_comes_from_the_last_chunk_that_carried_one() -> None:
    transcript = stream(
        chunk({"content": "a"}, "length"), chunk({"content": ""}), chunk({}, "stop"), chunk({})
    )
    assert transcript.response.stop_reason == StopReason("stop", "end_turn")


def test_an_error_event_is_an_issue_not_an_exception() -> None:
    error = {"error": {"message": "Tool call validation failed", "type": "invalid_request_error"}}
    events = [
        SSEEvent(data=json.dumps(chunk({"role": "assistant", "content": ""}))),
        SSEEvent(data=json.dumps(error), event="error"),
    ]
    transcript = codec.parse_stream(events)
    assert codes(transcript) == ["stream_error", "missing_done"]
    assert "Tool call validation failed" in transcript.issues[0].message


def test_a_stream_without_choices_is_reported_empty() -> None:
    transcript = stream(usage_chunk(1, 0))
    assert codes(transcript) == ["empty_stream"]
    assert transcript.response.choices == ()


def test_several_choices_are_reassembled_separately() -> None:
    transcript = stream(
        chunk({"role": "assistant", "content": "A"}, index=0),
        chunk({"role": "assistant", "content": "B"}, index=1),
        chunk({"content": "a"}, index=0),
        chunk({}, "stop", index=1),
        chunk({}, "length", index=0),
    )
    assert [(c.index, c.message.text, c.stop_reason.raw) for c in transcript.response.choices] == [
        (0, "Aa", "length"),
        (1, "B", "stop"),
    ]


def test_refusal_pieces_and_logprobs_accumulate() -> None:
    first = chunk({"role": "assistant", "content": None, "refusal": "I can't"})
    first["choices"][0]["logprobs"] = {"content": None, "refusal": [{"token": "I"}]}
    second = chunk({"refusal": " help."})
    second["choices"][0]["logprobs"] = {"content": None, "refusal": [{"token": " help"}]}
    transcript = stream(first, second, chunk({}, "stop"))
    choice = transcript.response.choices[0]
    assert choice.message.extra == {"refusal": "I can't help."}
    assert choice.extra == {
        "logprobs": {"content": None, "refusal": [{"token": "I"}, {"token": " help"}]}
    }
