"""A result wrapped in one output key says its text (docs/conventions.md).

Gemini's FunctionResponse.response is an object, and "callers can use any keys
of their choice that fit the function's syntax to return the function output,
e.g. "output", "result"" (https://ai.google.dev/api/caching#FunctionResponse).
LiteLLM 1.106 writes {"content": "<text>"}, Google's SDK {"result": ...}: both
carry the text, so neither is a change of text, and an "Error:" marker inside
still marks the failure.
"""

from __future__ import annotations

import json
from typing import Any

from tests.conformance.test_fidelity_corpus import conversion_codes, openai_request, payload
from toolwire.conformance.readings.conventions import output_envelope, read_result

CALL = {"id": "call_1", "type": "function", "function": {"name": "fetch", "arguments": "{}"}}


def _openai(content: str) -> Any:
    return openai_request(
        [
            {"role": "user", "content": "Fetch page 2."},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": content},
        ]
    )


def _gemini(response: dict[str, Any]) -> Any:
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Fetch page 2."}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": "call_1", "name": "fetch", "args": {}}}],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"id": "call_1", "name": "fetch", "response": response}}
                ],
            },
        ]
    }
    return payload("gemini", "request", body, "gemini")


def test_one_output_key_holding_a_string_is_a_wrapper() -> None:
    assert output_envelope('{"content": "page 2"}') == "page 2"
    assert output_envelope('{"result": ""}') == ""
    assert output_envelope('{"output": "x"}') == "x"
    assert output_envelope('{"temperature": "18 C"}') is None  # a field of the result
    assert output_envelope('{"content": "x", "more": 1}') is None
    assert output_envelope('{"content": {"a": 1}}') is None
    assert read_result('{"content": "Error: timeout"}', None, "gemini") == (True, "timeout")


def test_a_result_wrapped_in_content_keeps_its_text() -> None:
    """LiteLLM's form toward Gemini: correct, though not the reference's."""
    codes = conversion_codes(_openai("page 2: 14 rows"), _gemini({"content": "page 2: 14 rows"}))
    assert "fidelity.text" not in codes


def test_a_failure_wrapped_in_content_is_still_a_failure() -> None:
    text = "Error: upstream timeout while reading page 2"
    codes = conversion_codes(_openai(text), _gemini({"content": text}))
    assert "fidelity.text" not in codes
    assert "fidelity.error_flag" not in codes


def test_a_changed_text_in_a_wrapper_is_still_a_finding() -> None:
    codes = conversion_codes(_openai("page 2: 14 rows"), _gemini({"content": "page 2: 41 rows"}))
    assert "fidelity.text" in codes


def test_a_failure_whose_marker_is_lost_inside_the_wrapper_is_a_finding() -> None:
    codes = conversion_codes(
        _openai("Error: upstream timeout"), _gemini({"content": "upstream timeout"})
    )
    assert "fidelity.error_flag" in codes


def test_a_json_result_keeps_its_fields() -> None:
    """A one-field JSON result is no wrapper unless the field is an output key."""
    source = json.dumps({"temperature": "18 C"}, separators=(",", ":"))
    assert "fidelity.text" not in conversion_codes(
        _openai(source), _gemini({"temperature": "18 C"})
    )
    assert "fidelity.text" in conversion_codes(_openai(source), _gemini({"content": "18 C"}))


def test_a_json_result_re_serialised_as_a_gemini_object_keeps_its_text() -> None:
    """Gemini carries a result as an object: JSON text arrives re-serialised."""
    source = json.dumps({"bucket": "acme", "count": 21, "ok": True})
    assert "fidelity.text" not in conversion_codes(
        _openai(source), _gemini({"bucket": "acme", "count": 21, "ok": True})
    )
    # a changed value, or a boolean turned number, is still a change
    assert "fidelity.text" in conversion_codes(
        _openai(source), _gemini({"bucket": "acme", "count": 12, "ok": True})
    )
    assert "fidelity.text" in conversion_codes(
        _openai(source), _gemini({"bucket": "acme", "count": 21, "ok": 1})
    )
