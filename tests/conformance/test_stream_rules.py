"""stream.*: small streams written here, right and wrong; the corpus streams
and every real recorded stream hold (real-server quirks are not violations)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conformance.test_reasoning import (
    CORPUS,
    case_payloads,
    corpus_case,
    interaction_payload,
    real_payloads,
)
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.conformance.stream import CONVERSION_CHECKS, PAYLOAD_CHECKS
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import SSEEvent

# --- building streams ----------------------------------------------------------


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None) -> SSEEvent:
    choice = {"index": 0, "delta": delta or {}, "finish_reason": finish}
    data = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [choice],
    }
    return SSEEvent(json.dumps(data))


def fragment(index: int, arguments: str | None = None, **start: Any) -> SSEEvent:
    piece: dict[str, Any] = {"index": index, **({"id": start["id"]} if "id" in start else {})}
    function: dict[str, Any] = {}
    if "name" in start:
        piece["type"] = "function"
        function["name"] = start["name"]
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        piece["function"] = function
    return chunk({"tool_calls": [piece]})


DONE = SSEEvent("[DONE]")


def openai_stream(*events: SSEEvent, dialect: str = "openai-chat") -> PayloadUnderTest:
    parsed = get_codec(dialect).parse_stream(events)
    return PayloadUnderTest(dialect, "stream", DEFAULT_PROFILE[dialect], events, parsed)


def two_calls(second_index: int = 1, second_id: str | None = "call_b") -> list[SSEEvent]:
    start_b: dict[str, Any] = {"name": "get_time"}
    if second_id is not None:
        start_b["id"] = second_id
    return [
        chunk({"role": "assistant", "content": None}),
        fragment(0, "", id="call_a", name="get_weather"),
        fragment(0, '{"city": "Lisbon"}'),
        fragment(second_index, "", **start_b),
        fragment(second_index, '{"tz": "Europe/Lisbon"}'),
        chunk(finish="tool_calls"),
        DONE,
    ]


def event(kind: str, **data: Any) -> SSEEvent:
    return SSEEvent(json.dumps({"type": kind, **data}), event=kind)


MESSAGE: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 1},
}


def tool_block(index: int, call_id: str, name: str, *parts: str) -> list[SSEEvent]:
    block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
    deltas = [
        event(
            "content_block_delta",
            index=index,
            delta={"type": "input_json_delta", "partial_json": part},
        )
        for part in parts
    ]
    return [
        event("content_block_start", index=index, content_block=block),
        *deltas,
        event("content_block_stop", index=index),
    ]


END = [
    event(
        "message_delta",
        delta={"stop_reason": "tool_use", "stop_sequence": None},
        usage={"output_tokens": 40},
    ),
    event("message_stop"),
]


def anthropic_stream(*events: SSEEvent) -> PayloadUnderTest:
    parsed = get_codec("anthropic-messages").parse_stream(events)
    return PayloadUnderTest("anthropic-messages", "stream", "anthropic", events, parsed)


def anthropic_two_calls(second_index: int = 1) -> list[SSEEvent]:
    return [
        event("message_start", message=MESSAGE),
        *tool_block(0, "toolu_a", "get_weather", "", '{"city": ', '"Lisbon"}'),
        event("ping"),
        *tool_block(second_index, "toolu_b", "get_time", '{"tz": "Europe/Lisbon"}'),
        *END,
    ]


def results(put: PayloadUnderTest) -> dict[str, list[Finding] | None]:
    return {code: check(put) for code, check in PAYLOAD_CHECKS.items()}


def violated(put: PayloadUnderTest) -> list[str]:
    return sorted({f.code for found in results(put).values() for f in found or []})


# --- streams that honour the rules ---------------------------------------------


def test_a_well_formed_openai_stream_holds() -> None:
    found = results(openai_stream(*two_calls()))
    assert found == {
        "stream.chunk_id": [],
        "stream.call_index": [],
        "stream.index_collision": [],
        "stream.event_order": [],
        "stream.partial_json": [],
        # openai-responses only: no verdict on an openai-chat stream.
        "stream.item_reference": None,
        "stream.done_consistent": None,
    }


def test_a_well_formed_anthropic_stream_holds() -> None:
    assert violated(anthropic_stream(*anthropic_two_calls())) == []


def test_a_stream_without_calls_only_exercises_the_grammar() -> None:
    put = openai_stream(chunk({"role": "assistant", "content": "Hi"}), chunk(finish="stop"), DONE)
    found = results(put)
    assert found["stream.event_order"] == []
    assert found["stream.index_collision"] is None
    assert found["stream.partial_json"] is None


def test_non_streams_are_out_of_scope() -> None:
    put = interaction_payload("single-tool/weather-openai", 0, "response")
    assert all(value is None for value in results(put).values())


@pytest.mark.parametrize(
    "quirk",
    [
        "repeated empty id",
        "trailing empty arguments",
        "no finish_reason key before the last chunk",
        "azure content-filter chunk first",
    ],
)
def test_real_server_quirks_are_not_violations(quirk: str) -> None:
    # WIRE.md 1.1: deviations of real compatible servers.
    events = two_calls()
    if quirk == "repeated empty id":
        events[2] = chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "", "function": {"arguments": '{"city": "Lisbon"}'}}
                ]
            }
        )
    elif quirk == "trailing empty arguments":
        events.insert(5, fragment(1, ""))
    elif quirk == "no finish_reason key before the last chunk":
        # xAI and DashScope leave the key out until the last chunk.
        events = [_without_finish_key(e) if e is not events[-2] else e for e in events]
    else:
        # Azure OpenAI: a first chunk with empty choices, empty id and model.
        events.insert(0, AZURE_FILTER_CHUNK)
    put = openai_stream(*events)
    assert violated(put) == []
    assert put.stream is not None and put.stream.response.id == "chatcmpl-1"
    assert put.stream.response.model == "m"


AZURE_FILTER_CHUNK = SSEEvent(
    json.dumps(
        {
            "choices": [],
            "created": 0,
            "id": "",
            "model": "",
            "object": "",
            "prompt_filter_results": [
                {"prompt_index": 0, "content_filter_results": {"hate": {"filtered": False}}}
            ],
        }
    )
)


def _without_finish_key(event: SSEEvent) -> SSEEvent:
    if event.data == "[DONE]":
        return event
    data = json.loads(event.data)
    for choice in data["choices"]:
        choice.pop("finish_reason", None)
    return SSEEvent(json.dumps(data))


def test_an_error_event_may_end_a_stream() -> None:
    # Groq ends a failed stream with `event: error` and no [DONE] (real recording).
    error = SSEEvent(
        json.dumps({"error": {"message": "tool call validation failed"}}), event="error"
    )
    assert violated(openai_stream(chunk({"role": "assistant"}), error)) == []
    cut = [event("message_start", message=MESSAGE), *tool_block(0, "toolu_a", "f", '{"a": 1}')]
    anthropic_error = event("error", error={"type": "overloaded_error", "message": "Overloaded"})
    assert violated(anthropic_stream(*cut, anthropic_error)) == []


def test_unknown_anthropic_events_and_pings_are_ignored() -> None:
    events = anthropic_two_calls()
    events.insert(1, event("some_future_event", detail={}))
    assert violated(anthropic_stream(*events)) == []


def test_an_empty_anthropic_input_means_an_empty_object() -> None:
    events = [event("message_start", message=MESSAGE), *tool_block(0, "toolu_a", "now", ""), *END]
    assert violated(anthropic_stream(*events)) == []


# --- stream.index_collision --------------------------------------------------------


def test_two_openai_calls_at_one_index_collide() -> None:
    put = openai_stream(*two_calls(second_index=0))
    assert violated(put) == ["stream.index_collision"]
    found = results(put)["stream.index_collision"]
    assert found is not None and found[0].path == "events[3]"
    assert "two calls share one index" in found[0].message


def test_fragments_of_two_calls_merged_under_one_index_collide() -> None:
    # The second call arrives at index 0 with neither id nor name: its
    # arguments run into the first call's.
    events = [
        chunk({"role": "assistant", "content": None}),
        fragment(0, "", id="call_a", name="get_weather"),
        fragment(0, '{"city": "Lisbon"}'),
        fragment(0, '{"city": "Porto"}'),
        chunk(finish="tool_calls"),
        DONE,
    ]
    put = openai_stream(*events)
    assert violated(put) == ["stream.index_collision"]
    found = results(put)["stream.index_collision"]
    assert found is not None and "several JSON values" in found[0].message


def test_a_second_name_at_one_index_collides() -> None:
    put = openai_stream(*two_calls(second_index=0, second_id=None))
    assert violated(put) == ["stream.index_collision"]


def test_two_anthropic_blocks_at_one_index_collide() -> None:
    put = anthropic_stream(*anthropic_two_calls(second_index=0))
    assert violated(put) == ["stream.index_collision"]
    found = results(put)["stream.index_collision"]
    assert found is not None and any(f.actual == "duplicate_block_start" for f in found)


# --- stream.event_order -------------------------------------------------------------


def test_a_missing_done_breaks_the_openai_grammar() -> None:
    put = openai_stream(*two_calls()[:-1])
    assert violated(put) == ["stream.event_order"]
    found = results(put)["stream.event_order"]
    assert found is not None and found[0].actual == "missing_done"


def test_events_after_done_break_the_openai_grammar() -> None:
    put = openai_stream(*two_calls(), chunk({"content": "late"}))
    assert violated(put) == ["stream.event_order"]


def test_a_call_starting_without_id_or_name_breaks_the_grammar() -> None:
    events = [
        chunk({"role": "assistant"}),
        fragment(0, '{"city": "Lisbon"}'),
        chunk(finish="tool_calls"),
        DONE,
    ]
    assert violated(openai_stream(*events)) == ["stream.event_order"]


@pytest.mark.parametrize(
    ("mutation", "issue"),
    [
        ("drop message_stop", "missing_message_stop"),
        ("delta before start", "delta_without_start"),
        ("no message_start", "missing_message_start"),
        ("event name mismatch", "event_type_mismatch"),
    ],
)
def test_anthropic_grammar_violations(mutation: str, issue: str) -> None:
    events = anthropic_two_calls()
    if mutation == "drop message_stop":
        events = events[:-1]
    elif mutation == "delta before start":
        events.insert(
            1, event("content_block_delta", index=0, delta={"type": "text_delta", "text": "x"})
        )
    elif mutation == "no message_start":
        events = events[1:]
    else:
        events[-1] = SSEEvent(events[-1].data, event="message_delta")
    put = anthropic_stream(*events)
    assert violated(put) == ["stream.event_order"]
    found = results(put)["stream.event_order"]
    assert found is not None and issue in {f.actual for f in found}


# --- stream.partial_json ------------------------------------------------------------


def test_truncated_openai_fragments_are_partial_json() -> None:
    events = two_calls()
    events[2] = fragment(0, '{"city": "Lis')
    put = openai_stream(*events)
    assert violated(put) == ["stream.partial_json"]
    found = results(put)["stream.partial_json"]
    assert found is not None and found[0].path == "events[1]"
    assert found[0].actual == '{"city": "Lis'


def test_truncated_anthropic_fragments_are_partial_json() -> None:
    events = [
        event("message_start", message=MESSAGE),
        *tool_block(0, "toolu_a", "get_weather", '{"city": ', '"Lis'),
        *END,
    ]
    put = anthropic_stream(*events)
    assert violated(put) == ["stream.partial_json"]
    found = results(put)["stream.partial_json"]
    assert found is not None and found[0].path == "events[1]"


def test_a_last_call_cut_off_by_the_output_limit_is_not_partial_json() -> None:
    """A stream that stops at max_tokens (openai: length) while the model writes
    a call's arguments ends with the arguments unfinished: the documented shape
    of an incomplete tool_use block, not a broken stream."""
    cut = [
        chunk({"role": "assistant", "content": None}),
        fragment(0, "", id="call_a", name="get_weather"),
        fragment(0, '{"city": "Lis'),
        chunk(finish="length"),
        DONE,
    ]
    assert results(openai_stream(*cut))["stream.partial_json"] == []
    anthropic_cut = [
        event("message_start", message=MESSAGE),
        *tool_block(0, "toolu_a", "get_weather", '{"city": ', '"Lis'),
        event(
            "message_delta",
            delta={"stop_reason": "max_tokens", "stop_sequence": None},
            usage={"output_tokens": 40},
        ),
        event("message_stop"),
    ]
    assert results(anthropic_stream(*anthropic_cut))["stream.partial_json"] == []
    # An earlier call cannot have been cut off: its broken fragments still count.
    earlier = two_calls()
    earlier[2] = fragment(0, '{"city": "Lis')
    earlier[5] = chunk(finish="length")
    assert violated(openai_stream(*earlier)) == ["stream.partial_json"]


def test_a_call_with_no_arguments_streamed_is_partial_json() -> None:
    events = [
        chunk({"role": "assistant"}),
        fragment(0, None, id="call_a", name="now"),
        chunk(finish="tool_calls"),
        DONE,
    ]
    assert violated(openai_stream(*events)) == ["stream.partial_json"]


# --- stream.reassembly (conversion) -----------------------------------------------

reassembly = CONVERSION_CHECKS["stream.reassembly"]


def conversion(source: PayloadUnderTest, output: PayloadUnderTest) -> ConversionUnderTest:
    return ConversionUnderTest(source=source, output=output)


@pytest.mark.parametrize(
    ("source_case", "output_case"),
    [
        ("streaming/parallel-anthropic", "streaming/parallel-openai"),
        ("streaming/parallel-openai", "streaming/parallel-anthropic"),
        ("thinking/stream-anthropic", "thinking/stream-deepseek"),
    ],
)
def test_the_twin_streams_reassemble_to_the_same_message(
    source_case: str, output_case: str
) -> None:
    source = interaction_payload(source_case, 0, "stream")
    output = interaction_payload(output_case, 0, "stream")
    assert reassembly(conversion(source, output)) == []


def test_a_fragment_lost_by_the_converter_is_caught() -> None:
    # Converter B of NAIVE_CONVERTERS.md: a chunk carrying text and a
    # tool-call fragment loses the fragment.
    source_events = [
        chunk({"role": "assistant", "content": "Checking."}),
        chunk(
            {
                "content": " Now.",
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ],
            }
        ),
        fragment(0, '{"city": "Lisbon"}'),
        chunk(finish="tool_calls"),
        DONE,
    ]
    output_events = [
        event("message_start", message=MESSAGE),
        event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
        event(
            "content_block_delta", index=0, delta={"type": "text_delta", "text": "Checking. Now."}
        ),
        event("content_block_stop", index=0),
        *END,
    ]
    found = reassembly(conversion(openai_stream(*source_events), anthropic_stream(*output_events)))
    assert [f.code for f in found or []] == ["stream.reassembly"]
    assert found is not None and "1 tool call(s)" in found[0].message


def test_changed_text_in_the_reassembly_is_caught() -> None:
    source = openai_stream(
        chunk({"role": "assistant", "content": "Hello"}),
        chunk({"content": " there"}),
        chunk(finish="stop"),
        DONE,
    )
    output = openai_stream(
        chunk({"role": "assistant", "content": "Hello"}), chunk(finish="stop"), DONE
    )
    found = reassembly(conversion(source, output))
    assert [f.code for f in found or []] == ["stream.reassembly"]
    assert found is not None and found[0].expected == "Hello there"


def test_reassembly_needs_a_stream_and_leaves_qwen_xml_to_the_xml_rules() -> None:
    response = interaction_payload("single-tool/weather-openai", 0, "response")
    assert reassembly(conversion(response, response)) is None
    qwen = interaction_payload("qwen-xml/stream-text-then-call", 0, "stream")
    assert reassembly(conversion(qwen, openai_stream(*two_calls()))) is None


# --- the corpus and the real recordings ----------------------------------------------


@pytest.mark.parametrize("case_id", [i for i in CORPUS.ids if not corpus_case(i).is_negative])
def test_corpus_streams_hold(case_id: str) -> None:
    streams = [p for p in case_payloads(corpus_case(case_id)) if p.kind == "stream"]
    for put in streams:
        assert violated(put) == [], put.label


def test_every_real_stream_holds() -> None:
    streams = [put for put in real_payloads() if put.kind == "stream"]
    assert len(streams) >= 20
    problems = {
        put.label: [f.message for found in results(put).values() for f in found or []]
        for put in streams
    }
    assert {label: found for label, found in problems.items() if found} == {}


def test_the_real_streams_exercise_the_call_rules() -> None:
    judged = [
        put
        for put in real_payloads()
        if put.kind == "stream" and PAYLOAD_CHECKS["stream.partial_json"](put) is not None
    ]
    # (with ../shared/real-transcripts-responses-gemini, its dialects' streams too)
    assert {"openai-chat", "anthropic-messages"} <= {put.dialect for put in judged}


def test_one_call_whose_whole_arguments_are_resent_is_partial_json_not_a_collision() -> None:
    """A server that repeats the complete arguments in each fragment breaks the
    join for one call; no second call was merged in."""
    from toolwire.conformance.stream import PAYLOAD_CHECKS as STREAM_CHECKS
    from toolwire.harness.payloads import parse_payload

    def chunk(delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
        return {
            "event": None,
            "data": {
                "id": "c",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            },
        }

    fragment = {"index": 0, "function": {"arguments": '{"path": "a.py"}'}}
    events = [
        chunk(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "read", "arguments": ""},
                    }
                ],
            }
        ),
        chunk({"tool_calls": [fragment]}),
        chunk({"tool_calls": [fragment]}),
        chunk({}, "tool_calls"),
        {"event": None, "data": "[DONE]"},
    ]
    payload = parse_payload("openai-chat", "stream", events, "openai")
    # One call cannot collide with another: no verdict.
    assert STREAM_CHECKS["stream.index_collision"](payload) is None
    (partial,) = STREAM_CHECKS["stream.partial_json"](payload) or []
    assert partial.code == "stream.partial_json"
