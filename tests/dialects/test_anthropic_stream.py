"""anthropic-messages streams: reassembly, grammar issues, rendering."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.anthropic_messages.stream import ISSUE_CODES
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    Choice,
    OpaqueBlock,
    Response,
    SSEEvent,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
    Usage,
)
from toolwire.harness.sse import parse_sse, render_sse

CODEC = get_codec(ANTHROPIC_MESSAGES)


def ev(kind: str, name: str | None = "", **fields: Any) -> SSEEvent:
    """An event whose SSE name is its type (``name=""``), another name, or none."""
    return SSEEvent(data=json.dumps({"type": kind, **fields}), event=kind if name == "" else name)


def message_start(**usage: Any) -> SSEEvent:
    envelope: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1, "service_tier": "standard", **usage},
    }
    return ev("message_start", message=envelope)


def start(index: int, block: dict[str, Any]) -> SSEEvent:
    return ev("content_block_start", index=index, content_block=block)


def delta(index: int, kind: str, **payload: Any) -> SSEEvent:
    return ev("content_block_delta", index=index, delta={"type": kind, **payload})


def stop(index: int) -> SSEEvent:
    return ev("content_block_stop", index=index)


def message_delta(stop_reason: str = "tool_use", output_tokens: int = 40) -> SSEEvent:
    return ev(
        "message_delta",
        delta={"stop_reason": stop_reason, "stop_sequence": None},
        usage={"input_tokens": 10, "output_tokens": output_tokens},
    )


def good_stream() -> list[SSEEvent]:
    """Thinking, text, then two parallel calls whose deltas interleave."""
    return [
        message_start(),
        start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        ev("ping"),
        delta(0, "thinking_delta", thinking="Two "),
        delta(0, "thinking_delta", thinking="cities."),
        delta(0, "signature_delta", signature="EqQBsig"),
        stop(0),
        start(1, {"type": "text", "text": ""}),
        delta(1, "text_delta", text="Checking "),
        delta(1, "text_delta", text="both."),
        stop(1),
        start(2, {"type": "tool_use", "id": "toolu_a", "name": "weather", "input": {}}),
        start(3, {"type": "tool_use", "id": "toolu_b", "name": "weather", "input": {}}),
        delta(2, "input_json_delta", partial_json=""),
        delta(3, "input_json_delta", partial_json='{"city": "Ro'),
        delta(2, "input_json_delta", partial_json='{"city": "Pa'),
        delta(3, "input_json_delta", partial_json='me", "days": 3}'),
        delta(2, "input_json_delta", partial_json='ris"}'),
        stop(3),
        stop(2),
        message_delta(),
        ev("message_stop"),
    ]


def the_same_message_not_streamed() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [
            {"type": "thinking", "thinking": "Two cities.", "signature": "EqQBsig"},
            {"type": "text", "text": "Checking both."},
            {"type": "tool_use", "id": "toolu_a", "name": "weather", "input": {"city": "Paris"}},
            {
                "type": "tool_use",
                "id": "toolu_b",
                "name": "weather",
                "input": {"city": "Rome", "days": 3},
            },
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 40, "service_tier": "standard"},
    }


def codes(events: list[SSEEvent]) -> list[tuple[str, int | None]]:
    return [(i.code, i.event_index) for i in CODEC.parse_stream(events).issues]


def test_reassembles_what_the_non_streamed_call_returns() -> None:
    transcript = CODEC.parse_stream(good_stream())
    assert transcript.issues == ()
    assert transcript.dialect == ANTHROPIC_MESSAGES
    assert transcript.events == tuple(good_stream())
    assert transcript.response == CODEC.parse_response(the_same_message_not_streamed())


def test_interleaved_parallel_calls_keep_their_own_arguments() -> None:
    calls = CODEC.parse_stream(good_stream()).response.message.tool_calls
    assert [(c.id, c.arguments) for c in calls] == [
        ("toolu_a", {"city": "Paris"}),
        ("toolu_b", {"city": "Rome", "days": 3}),
    ]


def test_through_sse_text() -> None:
    events = parse_sse(render_sse(good_stream()))
    assert CODEC.parse_stream(events).response == CODEC.parse_stream(good_stream()).response


def test_usage_counts_in_message_delta_are_cumulative() -> None:
    response = CODEC.parse_stream(good_stream()).response
    assert response.usage == Usage(
        input_tokens=10,
        output_tokens=40,  # the final count replaces message_start's placeholder 1
        raw={"input_tokens": 10, "output_tokens": 40, "service_tier": "standard"},
    )


def tool_stream(*fragments: str, block_type: str = "tool_use") -> list[SSEEvent]:
    block = {"type": block_type, "id": "t1", "name": "f", "input": {}}
    return [
        message_start(),
        start(0, block),
        *(delta(0, "input_json_delta", partial_json=f) for f in fragments),
        stop(0),
        message_delta(),
        ev("message_stop"),
    ]


def test_an_empty_concatenation_means_an_empty_object() -> None:
    transcript = CODEC.parse_stream(tool_stream("", ""))
    assert transcript.issues == ()
    assert transcript.response.message.blocks == (ToolCall(id="t1", name="f", arguments={}),)


def test_no_fragment_at_all_keeps_the_start_input() -> None:
    (call,) = CODEC.parse_stream(tool_stream()).response.message.blocks
    assert isinstance(call, ToolCall)
    assert call.arguments == {}


def test_fragments_that_are_not_json_give_no_arguments() -> None:
    transcript = CODEC.parse_stream(tool_stream('{"a": ', "1"))
    (call,) = transcript.response.message.blocks
    assert isinstance(call, ToolCall)
    assert call.arguments is None
    assert call.raw_arguments == '{"a": 1'
    assert call.arguments_error
    assert [(i.code, i.event_index) for i in transcript.issues] == [("invalid_partial_json", 4)]


def test_server_tool_input_is_reassembled_too() -> None:
    transcript = CODEC.parse_stream(tool_stream('{"query"', ': "x"}', block_type="server_tool_use"))
    assert transcript.issues == ()
    assert transcript.response.message.blocks == (
        OpaqueBlock(
            type="server_tool_use",
            raw={"type": "server_tool_use", "id": "t1", "name": "f", "input": {"query": "x"}},
        ),
    )


def test_citations_delta_appends_to_the_text_block() -> None:
    citation = {"type": "web_search_result_location", "cited_text": "c", "url": "u"}
    events = [
        message_start(),
        start(0, {"citations": [], "type": "text", "text": ""}),
        delta(0, "citations_delta", citation=citation),
        delta(0, "text_delta", text="cited"),
        stop(0),
        message_delta("end_turn"),
        ev("message_stop"),
    ]
    transcript = CODEC.parse_stream(events)
    assert transcript.issues == ()
    assert transcript.response.message.blocks == (
        TextBlock("cited", extra={"citations": [citation]}),
    )


def test_end_fields_of_message_delta_reach_the_response() -> None:
    events = good_stream()
    events[-2] = ev(
        "message_delta",
        delta={"stop_reason": "pause_turn", "stop_sequence": None, "container": {"id": "c"}},
        usage={"output_tokens": 7},
    )
    response = CODEC.parse_stream(events).response
    assert response.stop_reason == StopReason(raw="pause_turn", canonical="pause_turn")
    assert response.extra["container"] == {"id": "c"}
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (10, 7)


def test_pings_anywhere_are_tolerated() -> None:
    expected = CODEC.parse_stream(good_stream()).response
    for position in range(len(good_stream())):
        events = good_stream()
        events.insert(position, ev("ping"))
        transcript = CODEC.parse_stream(events)
        assert transcript.issues == (), position
        assert transcript.response == expected


def test_sse_event_name_is_optional() -> None:
    events = [ev(json.loads(e.data)["type"], name=None, **_fields(e)) for e in good_stream()]
    assert CODEC.parse_stream(events).issues == ()


def _fields(event: SSEEvent) -> dict[str, Any]:
    return {k: v for k, v in json.loads(event.data).items() if k != "type"}


def _replace(position: int, event: SSEEvent) -> list[SSEEvent]:
    events = good_stream()
    events[position] = event
    return events


def _drop(position: int) -> list[SSEEvent]:
    events = good_stream()
    del events[position]
    return events


def _insert(position: int, event: SSEEvent) -> list[SSEEvent]:
    events = good_stream()
    events.insert(position, event)
    return events


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (
            _replace(3, SSEEvent(data="{not json", event="content_block_delta")),
            [("invalid_json", 3)],
        ),
        (
            _replace(
                3,
                ev(
                    "content_block_delta",
                    name="content_block_stop",
                    index=0,
                    delta={"type": "thinking_delta", "thinking": "Two "},
                ),
            ),
            [("event_type_mismatch", 3)],
        ),
        (_insert(3, delta(9, "text_delta", text="x")), [("delta_without_start", 3)]),
        (_insert(7, delta(0, "thinking_delta", thinking="late")), [("delta_without_start", 7)]),
        (_insert(9, delta(1, "input_json_delta", partial_json="{}")), [("delta_type_mismatch", 9)]),
        (_insert(13, delta(2, "text_delta", text="x")), [("delta_type_mismatch", 13)]),
        (_insert(9, delta(1, "signature_delta", signature="s")), [("delta_type_mismatch", 9)]),
        (_insert(9, delta(1, "compaction_delta", content="x")), [("delta_type_mismatch", 9)]),
        (_insert(9, delta(1, "future_delta", content="x")), [("unknown_delta", 9)]),
        (_drop(10), [("block_not_stopped", None)]),
        (_drop(0), [("missing_message_start", 0)]),
        (_drop(len(good_stream()) - 1), [("missing_message_stop", None)]),
        (_drop(len(good_stream()) - 2), [("missing_message_delta", None)]),
        (_insert(len(good_stream()), ev("ping")), [("after_message_stop", len(good_stream()))]),
        (
            _insert(7, ev("message_start", message={"role": "assistant"})),
            [("duplicate_message_start", 7)],
        ),
        (_insert(8, start(1, {"type": "text", "text": ""})), [("duplicate_block_start", 8)]),
        (_insert(7, stop(0)), [("stop_without_start", 7)]),
        (_insert(7, stop(5)), [("stop_without_start", 7)]),
        (_insert(3, ev("telemetry", note="x")), [("unknown_event", 3)]),
        (
            _insert(3, ev("content_block_start", index=-1, content_block={"type": "text"})),
            [("invalid_event", 3)],
        ),
        (_insert(3, start(4, {"text": "no type"})), [("invalid_event", 3)]),
        (_insert(3, SSEEvent(data="[1, 2]", event="content_block_delta")), [("invalid_event", 3)]),
        (_insert(3, delta(0, "thinking_delta", thinking=5)), [("invalid_event", 3)]),
        (
            _insert(
                3, SSEEvent(data=json.dumps({"type": "message_delta", "delta": {"stop_reason": 3}}))
            ),
            [("invalid_event", 3)],
        ),
    ],
)
def test_grammar_issues_are_reported_not_raised(
    events: list[SSEEvent], expected: list[tuple[str, int | None]]
) -> None:
    assert codes(events) == expected
    assert {code for code, _ in expected} <= set(ISSUE_CODES)


def test_a_block_starting_at_an_unexpected_index_is_reported() -> None:
    events = [
        message_start(),
        start(1, {"type": "text", "text": "late"}),
        stop(1),
        message_delta("end_turn"),
        ev("message_stop"),
    ]
    assert codes(events) == [("index_out_of_order", 1)]


def test_an_error_event_ends_the_stream_with_its_message() -> None:
    events = good_stream()[:9]
    events.append(ev("error", error={"type": "overloaded_error", "message": "Overloaded"}))
    transcript = CODEC.parse_stream(events)
    issues = [(i.code, i.event_index) for i in transcript.issues]
    assert issues == [
        ("error_event", 9),
        ("block_not_stopped", None),
        ("missing_message_delta", None),
        ("missing_message_stop", None),
    ]
    assert transcript.issues[0].message == "overloaded_error: Overloaded"
    # what arrived before the error is still reassembled
    assert transcript.response.message.blocks[1] == TextBlock("Checking ")


def test_an_empty_stream() -> None:
    transcript = CODEC.parse_stream([])
    assert [i.code for i in transcript.issues] == [
        "missing_message_start",
        "missing_message_delta",
        "missing_message_stop",
    ]
    assert transcript.response.message.blocks == ()
    assert transcript.response.stop_reason.canonical == "unknown"


# --- render_stream -------------------------------------------------------


def rendered(response: Response) -> list[dict[str, Any]]:
    events = CODEC.render_stream(response)
    for event in events:
        assert event.event == json.loads(event.data)["type"]
    return [json.loads(e.data) for e in events]


def test_render_stream_writes_the_documented_event_sequence() -> None:
    response = CODEC.parse_response(the_same_message_not_streamed())
    data = rendered(response)
    assert [d["type"] for d in data] == [
        "message_start",
        "content_block_start",
        "ping",
        "content_block_delta",  # thinking_delta
        "content_block_delta",  # signature_delta
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "content_block_start",
        "content_block_delta",  # empty first fragment
        "content_block_delta",
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    first = data[0]["message"]
    assert (first["content"], first["stop_reason"], first["stop_sequence"]) == ([], None, None)
    assert first["usage"]["output_tokens"] == 1
    assert data[1]["content_block"] == {"type": "thinking", "thinking": "", "signature": ""}
    assert data[3]["delta"] == {"type": "thinking_delta", "thinking": "Two cities."}
    assert data[4]["delta"] == {"type": "signature_delta", "signature": "EqQBsig"}
    assert data[9]["content_block"] == {
        "type": "tool_use",
        "id": "toolu_a",
        "name": "weather",
        "input": {},
    }
    assert data[10]["delta"] == {"type": "input_json_delta", "partial_json": ""}
    assert json.loads(data[11]["delta"]["partial_json"]) == {"city": "Paris"}
    assert data[-2]["delta"] == {"stop_reason": "tool_use", "stop_sequence": None}
    assert data[-2]["usage"]["output_tokens"] == 40


def test_render_stream_round_trips_through_parse_stream() -> None:
    response = CODEC.parse_response(the_same_message_not_streamed())
    again = CODEC.parse_stream(CODEC.render_stream(response))
    assert again.issues == ()
    assert again.response == response


def test_render_stream_of_a_response_built_by_code() -> None:
    response = Response(
        dialect=ANTHROPIC_MESSAGES,
        id="msg_x",
        model="m",
        choices=(
            Choice(
                index=0,
                message=Turn(
                    role="assistant",
                    blocks=(
                        ThinkingBlock(origin="redacted_thinking", redacted_data="EmwK"),
                        TextBlock("Let me look."),
                        OpaqueBlock(
                            type="server_tool_use",
                            raw={"type": "server_tool_use", "id": "s", "name": "w", "input": {}},
                        ),
                        ToolCall(id="c1", name="f", arguments={"q": "ü", "n": [1, 2]}),
                        ToolCall(id="c2", name="g", arguments={}),
                    ),
                ),
                stop_reason=StopReason(raw="tool_use", canonical="tool_use"),
            ),
        ),
        usage=Usage(input_tokens=3, output_tokens=4),
    )
    transcript = CODEC.parse_stream(CODEC.render_stream(response))
    assert transcript.issues == ()
    got = transcript.response
    assert got.message.blocks == response.message.blocks
    assert got.stop_reason == response.stop_reason
    assert got.usage is not None
    assert (got.usage.input_tokens, got.usage.output_tokens) == (3, 4)
    assert (got.id, got.model) == ("msg_x", "m")


def test_render_stream_keeps_arguments_that_never_parsed() -> None:
    transcript = CODEC.parse_stream(tool_stream('{"a": ', "1"))
    again = CODEC.parse_stream(CODEC.render_stream(transcript.response))
    assert again.response == transcript.response
    assert [i.code for i in again.issues] == ["invalid_partial_json"]


def test_render_stream_of_string_content_streams_it_as_a_text_block() -> None:
    body = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "content": "plain",
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    response = CODEC.parse_response(body)
    got = CODEC.parse_stream(CODEC.render_stream(response)).response
    assert got.message.blocks == (TextBlock("plain"),)
    assert got.message.content_form == "blocks"  # a stream always carries blocks


def test_a_malformed_message_start_is_reported_and_replaced() -> None:
    events = good_stream()
    events[0] = ev("message_start", message={"role": 7, "content": []})
    assert codes(events) == [("invalid_event", 0), ("missing_message_start", 1)]
    events[0] = ev("message_start", message="msg")
    assert codes(events) == [("invalid_event", 0), ("missing_message_start", 1)]
    assert CODEC.parse_stream(events).response.message.tool_calls[1].id == "toolu_b"


def test_content_in_message_start_is_reported() -> None:
    events = good_stream()
    events[0] = ev("message_start", message={"role": "assistant", "content": [{"type": "x"}]})
    assert codes(events) == [("message_start_content", 0)]
