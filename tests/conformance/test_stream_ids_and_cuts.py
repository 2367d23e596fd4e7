"""stream.chunk_id, stream.call_index, tool inputs cut off by the token limit,
and one finding per repeated problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conformance.test_stream_rules import (
    DONE,
    END,
    MESSAGE,
    anthropic_stream,
    chunk,
    conversion,
    event,
    fragment,
    openai_stream,
    reassembly,
    results,
    tool_block,
    two_calls,
    violated,
)
from toolwire.conformance.stream import PAYLOAD_CHECKS
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.model import SSEEvent
from toolwire.harness.schemas import validate_payload
from toolwire.harness.sse import parse_sse

SDK_FIXTURES = Path(__file__).parents[1] / "dialects" / "sdk_fixtures"
CUT_STREAM = SDK_FIXTURES / "anthropic-sdk-python" / "incomplete_partial_json_response.sse"


def with_id(events: list[SSEEvent], *ids: str) -> list[SSEEvent]:
    """The stream with the chunks' ids replaced, in turn, by ``ids``."""
    out, n = [], 0
    for item in events:
        if item.data == "[DONE]":
            out.append(item)
            continue
        data = json.loads(item.data)
        data["id"] = ids[min(n, len(ids) - 1)]
        n += 1
        out.append(SSEEvent(json.dumps(data)))
    return out


# --- stream.chunk_id --------------------------------------------------------------


def test_one_id_throughout_holds() -> None:
    assert results(openai_stream(*two_calls()))["stream.chunk_id"] == []


def test_a_new_id_per_chunk_is_one_finding_with_a_count() -> None:
    events = with_id(two_calls(), *[f"chatcmpl-{n}" for n in range(6)])
    found = results(openai_stream(*events))["stream.chunk_id"]
    assert found is not None and len(found) == 1
    assert found[0].path == "events[1]" and "5 times" in found[0].message


def test_one_changed_id_is_found() -> None:
    events = with_id(two_calls(), "chatcmpl-1", "chatcmpl-1", "chatcmpl-2")
    assert violated(openai_stream(*events)) == ["stream.chunk_id"]


def test_streams_without_chunk_ids_are_not_judged() -> None:
    events = [
        SSEEvent(json.dumps({k: v for k, v in json.loads(e.data).items() if k != "id"}))
        if e.data != "[DONE]"
        else e
        for e in two_calls()
    ]
    assert results(openai_stream(*events))["stream.chunk_id"] is None


def test_anthropic_streams_are_out_of_the_chunk_id_rule() -> None:
    put = anthropic_stream(
        event("message_start", message=MESSAGE),
        *tool_block(0, "toolu_a", "get_weather", '{"city": "Lisbon"}'),
        *END,
    )
    assert results(put)["stream.chunk_id"] is None
    assert results(put)["stream.call_index"] is None


# --- stream.call_index ------------------------------------------------------------


def test_calls_from_one_are_found() -> None:
    # An Anthropic block index leaked: text at block 0, the calls at 1 and 2.
    events = [
        chunk({"role": "assistant", "content": "Checking."}),
        fragment(1, "", id="call_a", name="get_weather"),
        fragment(1, '{"city": "Lisbon"}'),
        fragment(2, "", id="call_b", name="get_time"),
        fragment(2, '{"tz": "Europe/Lisbon"}'),
        chunk(finish="tool_calls"),
        DONE,
    ]
    found = results(openai_stream(*events))["stream.call_index"]
    assert found is not None and [f.path for f in found] == ["events[1]"]
    assert "2 times" in found[0].message
    assert violated(openai_stream(*events)) == ["stream.call_index"]


def test_a_skipped_index_is_found() -> None:
    assert violated(openai_stream(*two_calls(second_index=2))) == ["stream.call_index"]


def test_calls_all_at_index_zero_are_a_collision_not_an_index_gap() -> None:
    assert violated(openai_stream(*two_calls(second_index=0))) == ["stream.index_collision"]


def test_a_stream_without_calls_is_not_judged_on_call_indices() -> None:
    put = openai_stream(chunk({"role": "assistant", "content": "Hi"}), chunk(finish="stop"), DONE)
    assert results(put)["stream.call_index"] is None


# --- a tool input cut off by the token limit ---------------------------------------


def cut_anthropic(stop: str = "max_tokens", tail: str = '"lines": ["a", "b') -> Any:
    return anthropic_stream(
        event("message_start", message=MESSAGE),
        *tool_block(0, "toolu_a", "make_file", '{"filename": "a.txt", ', tail)[:-1],
        event(
            "message_delta",
            delta={"stop_reason": stop, "stop_sequence": None},
            usage={"output_tokens": 40},
        ),
        event("message_stop"),
    )


def openai_output(*argument_pieces: str, finish: str = "length") -> Any:
    return openai_stream(
        chunk({"role": "assistant", "content": None}),
        fragment(0, "", id="toolu_a", name="make_file"),
        *[fragment(0, piece) for piece in argument_pieces],
        chunk(finish=finish),
        DONE,
    )


def test_a_cut_input_keeps_what_the_sdk_keeps_and_breaks_no_rule() -> None:
    put = cut_anthropic()
    assert put.stream is not None
    call = put.stream.response.message.tool_calls[0]
    assert call.arguments == {"filename": "a.txt", "lines": ["a"]}
    assert violated(put) == []


def test_the_sdk_fixture_cut_by_max_tokens_breaks_no_rule() -> None:
    put = anthropic_stream(*parse_sse(CUT_STREAM.read_text(encoding="utf-8")))
    assert violated(put) == []


def test_a_cut_input_without_the_token_limit_is_partial_json() -> None:
    assert violated(cut_anthropic(stop="end_turn")) == ["stream.event_order", "stream.partial_json"]


def test_text_that_is_no_json_prefix_stays_partial_json_at_the_token_limit() -> None:
    assert "stream.partial_json" in violated(cut_anthropic(tail='"lines": [bad'))


def test_a_merged_call_stays_a_collision_at_the_token_limit() -> None:
    put = openai_output('{"city": "Lisbon"}{"city": "Paris"}', finish="length")
    assert violated(put) == ["stream.index_collision"]
    # A complete value followed by a cut one is no cut prefix either.
    put = openai_output('{"city": "Lisbon"}{"city": "Par', finish="length")
    assert violated(put) == ["stream.partial_json"]


def test_forwarding_the_cut_text_or_closing_it_both_reassemble_right() -> None:
    source = cut_anthropic()
    forwarded = openai_output('{"filename": "a.txt", ', '"lines": ["a", "b')
    closed = openai_output('{"filename": "a.txt", "lines": ["a"]}')
    for output in (forwarded, closed):
        assert reassembly(conversion(source, output)) == []
        assert violated(output) == []


def test_dropping_the_cut_input_is_caught() -> None:
    source = cut_anthropic()
    for dropped in (openai_output("{}"), openai_output('{"filename": "a.txt"}')):
        found = reassembly(conversion(source, dropped))
        assert [f.code for f in found or []] == ["stream.reassembly"]


def test_an_unstopped_block_is_excused_only_at_the_token_limit() -> None:
    assert "stream.event_order" not in violated(cut_anthropic())
    assert "stream.event_order" in violated(cut_anthropic(stop="tool_use"))


# --- one problem repeated in one stream is one finding ----------------------------


def test_a_repeated_grammar_problem_is_one_finding_with_a_count() -> None:
    events = [SSEEvent("not json") for _ in range(300)]
    put = openai_stream(
        chunk({"role": "assistant", "content": "Hi"}), *events, chunk(finish="stop"), DONE
    )
    found = PAYLOAD_CHECKS["stream.event_order"](put)
    assert found is not None and len(found) == 1
    assert "300 times" in found[0].message and "the last at events[300]" in found[0].message


def test_different_problems_stay_separate_findings() -> None:
    put = openai_stream(
        chunk({"role": "assistant", "content": "Hi"}), SSEEvent("not json"), chunk(finish="stop")
    )
    found = PAYLOAD_CHECKS["stream.event_order"](put)
    assert sorted(f.actual for f in found or []) == ["invalid_json", "missing_done"]


# --- what the official SDKs accept, the chunk schema accepts -----------------------

AZURE_FILTER = {
    "choices": [],
    "created": 0,
    "id": "",
    "model": "",
    "object": "",
    "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}],
}
PLAIN = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "grok-4",
    "choices": [{"index": 0, "delta": {"content": "Hi"}}],
}


def test_the_chunk_schema_accepts_what_the_sdks_accept() -> None:
    assert validate_payload("openai-chat", "stream", AZURE_FILTER) == []
    assert validate_payload("openai-chat", "stream", PLAIN) == []  # no finish_reason key


def test_the_chunk_schema_still_wants_the_chunk_object_elsewhere() -> None:
    assert validate_payload("openai-chat", "stream", {**PLAIN, "object": ""}) != []
    with_choice = {**AZURE_FILTER, "choices": PLAIN["choices"]}
    assert validate_payload("openai-chat", "stream", with_choice) != []


def test_the_reference_adapter_carries_a_cut_input_both_ways() -> None:
    adapter = ReferenceAdapter()
    source = anthropic_stream(*parse_sse(CUT_STREAM.read_text(encoding="utf-8")))
    wire = [{"event": e.event, "data": json.loads(e.data)} for e in source.raw]
    out = adapter.convert(wire, "stream", "anthropic-messages", "openai-chat")
    output = openai_stream(*wire_events(out))
    assert violated(output) == []
    assert reassembly(conversion(source, output)) == []
    back = adapter.convert(out, "stream", "openai-chat", "anthropic-messages")
    returned = anthropic_stream(*wire_events(back))
    assert violated(returned) == []
    assert reassembly(conversion(source, returned)) == []
    assert returned.stream is not None
    assert returned.stream.response.stop_reason.raw == "max_tokens"


def wire_events(events: list[dict[str, Any]]) -> list[SSEEvent]:
    return [
        SSEEvent(e["data"] if isinstance(e["data"], str) else json.dumps(e["data"]), e["event"])
        for e in events
    ]


def test_a_one_chunk_stream_has_no_second_id_to_compare() -> None:
    (first, *_rest) = [e for e in two_calls() if e.data != "[DONE]"]
    assert results(openai_stream(first, SSEEvent("[DONE]")))["stream.chunk_id"] is None
