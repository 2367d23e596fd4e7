"""The shape checks of wire_shapes.py catch what they claim to: each test
breaks one thing in a payload of a pending case and expects one problem."""

from __future__ import annotations

import copy
import json
from typing import Any

from tests.corpus import wire_shapes
from tests.corpus.new_dialect_cases import Exchange, cases_root, read_case


def _exchange(case_id: str, index: int = 0) -> Exchange:
    return read_case(cases_root() / f"{case_id}.yaml").exchanges[index]


def _events(case_id: str) -> list[tuple[str | None, dict[str, Any]]]:
    exchange = _exchange(case_id)
    return [(e.event, json.loads(e.data)) for e in exchange.events() if e.data]


def test_the_unbroken_payloads_pass() -> None:
    assert (
        wire_shapes.responses_request(_exchange("parallel/two-cities-responses", 1).request) == []
    )
    assert wire_shapes.responses_stream(_events("streaming/parallel-responses")) == []
    assert wire_shapes.gemini_request(_exchange("parallel/two-cities-gemini", 1).request) == []


def test_an_output_before_its_call_is_caught() -> None:
    body = copy.deepcopy(_exchange("single-tool/weather-responses", 1).request)
    items = body["input"]
    items[1], items[2] = items[2], items[1]
    assert any("before its call" in p for p in wire_shapes.responses_request(body))


def test_an_unanswered_call_is_caught() -> None:
    body = copy.deepcopy(_exchange("parallel/two-cities-responses", 1).request)
    body["input"] = [i for i in body["input"] if i.get("type") != "function_call_output"]
    body["input"].append({"role": "user", "content": "never mind"})
    problems = wire_shapes.responses_request(body)
    assert any("has 0 outputs" in p for p in problems)


def test_arguments_as_an_object_are_caught() -> None:
    body = copy.deepcopy(_exchange("single-tool/weather-responses").response_json())
    call = body["output"][0]
    call["arguments"] = json.loads(call["arguments"])
    assert any("JSON text" in p for p in wire_shapes.responses_response(body))


def test_an_item_id_used_as_call_id_is_caught() -> None:
    body = copy.deepcopy(_exchange("single-tool/weather-responses").response_json())
    body["output"][0]["call_id"] = body["output"][0]["id"]
    assert any("equals call_id" in p for p in wire_shapes.responses_response(body))


def test_a_gap_in_sequence_numbers_is_caught() -> None:
    events = _events("streaming/parallel-responses")
    del events[3]
    assert any("sequence_number" in p for p in wire_shapes.responses_stream(events))


def test_a_lost_argument_delta_is_caught() -> None:
    events = _events("streaming/single-call-responses")
    deltas = [i for i, (_, e) in enumerate(events) if e["type"].endswith("arguments.delta")]
    events = [e for i, e in enumerate(events) if i != deltas[1]]
    for number, (_, event) in enumerate(events):
        event["sequence_number"] = number
    assert any("differs from its deltas" in p for p in wire_shapes.responses_stream(events))


def test_a_signature_on_the_second_parallel_call_is_caught() -> None:
    body = copy.deepcopy(_exchange("parallel/gemini3-three-calls-one-signature-gemini", 1).request)
    model = next(c for c in body["contents"] if c["role"] == "model")
    model["parts"][1]["thoughtSignature"] = model["parts"][0]["thoughtSignature"]
    assert any("after the first" in p for p in wire_shapes.gemini_request(body))


def test_a_missing_function_response_is_caught() -> None:
    body = copy.deepcopy(_exchange("parallel/two-cities-gemini", 1).request)
    body["contents"][-1]["parts"].pop()
    assert any("do not answer" in p for p in wire_shapes.gemini_request(body))


def test_a_signature_that_is_not_base64_is_caught() -> None:
    body = copy.deepcopy(_exchange("single-tool/gemini25-weather-auto-gemini").response_json())
    body["candidates"][0]["content"]["parts"][0]["thoughtSignature"] = "not base64!"
    assert any("not base64" in p for p in wire_shapes.gemini_response(body))


def test_both_base64_alphabets_give_the_same_signature() -> None:
    # The API answered in the standard alphabet; google-genai sent it back URL-safe.
    answer = _exchange("single-tool/gemini25-weather-auto-gemini").response_json()
    replay = _exchange("single-tool/gemini25-weather-auto-gemini", 1).request
    sent = answer["candidates"][0]["content"]["parts"][0]["thoughtSignature"]
    back = next(c for c in replay["contents"] if c["role"] == "model")["parts"][0]
    assert sent != back["thoughtSignature"]
    assert wire_shapes.signature_bytes(sent) == wire_shapes.signature_bytes(
        back["thoughtSignature"]
    )


def test_a_finish_reason_before_the_last_chunk_is_caught() -> None:
    chunks = _exchange("streaming/text-then-call-gemini").event_payloads()
    chunks[0]["candidates"][0]["finishReason"] = "STOP"
    assert any("before the last" in p for p in wire_shapes.gemini_stream(chunks))
