"""fidelity.text and fidelity.error_flag on results that travel as Gemini objects.

A caught defect (the text inside changed, the failure lost), correct-but-different
forms that pass (the parsed JSON value, a one-key wrapper such as LiteLLM's
``{"content": text}``), and the readings themselves."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import openai_request, payload
from toolwire.conformance.fidelity.error_flag import check_error_flag
from toolwire.conformance.fidelity.text import check_text
from toolwire.conformance.readings.conventions import output_envelope
from toolwire.conformance.readings.result_objects import readings, same_json

CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "lookup", "arguments": '{"q": "x"}'},
}


def _source(result: str) -> Any:
    return openai_request(
        [
            {"role": "user", "content": "Look it up."},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": result},
        ]
    )


def _gemini(response: dict[str, Any]) -> Any:
    raw = {
        "model": "gemini-2.5-flash",
        "contents": [
            {"role": "user", "parts": [{"text": "Look it up."}]},
            {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {"q": "x"}}}]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "lookup", "response": response}}],
            },
        ],
    }
    return payload("gemini", "request", raw)


def _codes(found: Any) -> list[str]:
    return [f.code for f in found or []]


def test_a_json_result_sent_as_its_object_is_the_same_result() -> None:
    source = _source('{"city": "Oslo", "temp": 3.5}')
    assert check_text(source, _gemini({"temp": 3.5, "city": "Oslo"})) == []


def test_text_under_one_key_is_the_same_text() -> None:
    for key in ("content", "result", "output"):
        assert check_text(_source("Snow, -2°C"), _gemini({key: "Snow, -2°C"})) == []


def test_changed_text_inside_the_wrapper_is_caught() -> None:
    found = check_text(_source("Snow, -2°C"), _gemini({"content": "Snow"}))
    assert _codes(found) == ["fidelity.text"]
    found = check_text(_source('{"city": "Oslo"}'), _gemini({"city": "Bergen"}))
    assert _codes(found) == ["fidelity.text"]


def test_a_failure_said_inside_the_wrapper_is_kept_and_one_dropped_is_caught() -> None:
    source = _source("Error: HTTP 503 Service Unavailable")
    assert (
        check_error_flag(source, _gemini({"content": "Error: HTTP 503 Service Unavailable"})) == []
    )
    assert check_text(source, _gemini({"content": "Error: HTTP 503 Service Unavailable"})) == []
    dropped = check_error_flag(source, _gemini({"content": "HTTP 503 Service Unavailable"}))
    assert _codes(dropped) == ["fidelity.error_flag"]


def test_readings() -> None:
    assert readings('{"content":"Error: x"}') == ('{"content":"Error: x"}', "x")
    assert readings('{"a":1}') == ('{"a":1}',)
    assert readings("plain") == ("plain",)
    assert output_envelope('{"result":"ok"}') == "ok"
    assert output_envelope('{"a":"1","b":"2"}') is None
    assert same_json('{"a": [1, 2]}', '{"a":[1,2]}')
    assert same_json('{"a": 1}', '{"a": 1.0}')  # numbers by value, as fidelity.arguments
    assert not same_json('{"a": 1}', '{"a": true}')  # booleans are no numbers
    assert not same_json("1", "1")  # only objects and arrays


def test_a_key_of_the_tools_own_is_no_wrapper() -> None:
    # {"city": "Oslo"} is the tool's data, not "Oslo" wrapped.
    found = check_text(_source("Oslo"), _gemini({"city": "Oslo"}))
    assert _codes(found) == ["fidelity.text"]
    assert readings('{"city":"Oslo"}') == ('{"city":"Oslo"}',)
