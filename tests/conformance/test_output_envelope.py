"""A function's output wrapped in one of the keys clients use for a Gemini
``functionResponse.response`` (``output``, ``result``, ``content``,
``return_value``) says the same as the bare text (docs/conventions.md,
"Gemini": the FunctionResponse reference reads any object but ``output`` and
``error`` as a whole-object output, and clients wrap text in these keys)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import conversion_codes, openai_request, payload
from toolwire.conformance.readings.conventions import output_envelope, read_result

TEXT = '{"amount": 250, "converted": 229.85}'
CALL = {"id": "call_1", "type": "function", "function": {"name": "convert", "arguments": "{}"}}


def _openai(content: str) -> Any:
    return openai_request(
        [
            {"role": "user", "content": "Convert 250 USD."},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": content},
        ]
    )


def _gemini(response: dict[str, Any]) -> Any:
    call = {"functionCall": {"id": "call_1", "name": "convert", "args": {}}}
    answer = {"functionResponse": {"id": "call_1", "name": "convert", "response": response}}
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Convert 250 USD."}]},
            {"role": "model", "parts": [call]},
            {"role": "user", "parts": [answer]},
        ]
    }
    return payload("gemini", "request", body)


def test_the_envelope_is_read_as_its_text() -> None:
    for key in ("output", "result", "content", "return_value"):
        assert output_envelope(json.dumps({key: "x"})) == "x"
        assert read_result(json.dumps({key: "x"}), None, "openai-chat") == (False, "x")
    assert output_envelope('{"result": "x", "status": 200}') is None  # more than the envelope
    assert output_envelope('{"city": "x"}') is None  # a key of the tool's own output
    assert output_envelope('{"result": 3}') is None  # not text: the object is the output


@pytest.mark.parametrize("key", ["output", "result", "content", "return_value"])
def test_a_converter_may_wrap_the_text_in_any_of_these_keys(key: str) -> None:
    assert "fidelity.text" not in conversion_codes(_openai(TEXT), _gemini({key: TEXT}))
    # And back: the whole object kept as JSON text says the same.
    assert "fidelity.text" not in conversion_codes(
        _gemini({key: TEXT}), _openai(json.dumps({key: TEXT}))
    )


def test_a_key_of_the_tools_own_is_no_envelope() -> None:
    assert "fidelity.text" in conversion_codes(_openai(TEXT), _gemini({"data": TEXT}))
