"""A failed result written {"error": "<text>"} in a dialect without a flag
says <text>, failed (docs/conventions.md), as pydantic-ai writes it."""

from __future__ import annotations

import json
from typing import Any

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    conversion_codes,
    openai_request,
)
from toolwire.conformance.readings.conventions import error_envelope, read_result

CALL = {"id": "call_1", "type": "function", "function": {"name": "fetch", "arguments": "{}"}}


def _anthropic(is_error: bool) -> Any:
    return anthropic_request(
        [
            {"role": "user", "content": "Fetch page 2."},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "call_1", "name": "fetch", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": "upstream timeout while reading page 2",
                        "is_error": is_error,
                    }
                ],
            },
        ]
    )


def _openai(content: str) -> Any:
    return openai_request(
        [
            {"role": "user", "content": "Fetch page 2."},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": content},
        ]
    )


def test_the_envelope_is_read_as_a_failed_result_with_its_text() -> None:
    text = json.dumps({"error": "Error: upstream timeout"})
    assert error_envelope(text) == "Error: upstream timeout"
    assert read_result(text, None, "openai-chat") == (True, "upstream timeout")
    assert error_envelope('{"error": "x", "code": 3}') is None  # more than the envelope
    # In anthropic the flag alone says failed; the text compares without the envelope.
    assert read_result('{"error": "x"}', None, "anthropic-messages") == (False, "x")
    assert read_result('{"error": "x"}', True, "anthropic-messages") == (True, "x")


def test_a_failed_result_written_as_an_envelope_keeps_its_text() -> None:
    envelope = json.dumps({"error": "upstream timeout while reading page 2"})
    codes = conversion_codes(_anthropic(True), _openai(envelope))
    assert "fidelity.text" not in codes
    assert "fidelity.error_flag" not in codes


def test_a_successful_result_wrapped_as_an_error_is_still_a_finding() -> None:
    envelope = json.dumps({"error": "upstream timeout while reading page 2"})
    assert "fidelity.error_flag" in conversion_codes(_anthropic(False), _openai(envelope))
