"""Tool results toward Gemini are judged on what they say, not on JSON spacing.

google-genai wraps a function's return value as ``{"result": value}``
(automatic function calling, ``_extra_utils``), and any-llm does the same
for a tool message; a JSON text sent as the object it spells loses only its
whitespace. A response without choices (a candidate a library dropped) has
no assistant message for the reasoning checks to read.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.fidelity.text import check_text
from toolwire.conformance.reasoning.altered import check_altered
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.gemini.results import result_text
from toolwire.harness.model import GEMINI, OPENAI_CHAT


@pytest.mark.parametrize(
    ("response", "text"),
    [
        ({"result": "sunny"}, "sunny"),
        ({"result": 395}, "395"),
        ({"result": {"temp": 5}}, '{"temp":5}'),
        ({"output": "sunny"}, "sunny"),
        ({"result": "a", "extra": 1}, '{"result":"a","extra":1}'),
        ({"temperature": 5}, '{"temperature":5}'),
    ],
)
def test_result_text_reads_googles_return_value_wrapper(response: Any, text: str) -> None:
    assert result_text(response) == text


def _chat(content: str) -> dict[str, Any]:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": content},
        ],
    }


def _gemini(response: Any) -> dict[str, Any]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": "call_1", "name": "f", "args": {}}}],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"id": "call_1", "name": "f", "response": response}}
                ],
            },
        ]
    }


def _under(dialect: str, body: dict[str, Any]) -> PayloadUnderTest:
    return PayloadUnderTest(
        dialect, "request", dialect, body, get_codec(dialect).parse_request(body)
    )


@pytest.mark.parametrize(
    ("content", "response", "same"),
    [
        ('{"base": "CHF", "rate": 1.5}', {"base": "CHF", "rate": 1.5}, True),
        ('[{"day": 1}, {"day": 2}]', {"result": [{"day": 1}, {"day": 2}]}, True),
        ("sunny", {"result": "sunny"}, True),
        ('{"base": "CHF"}', {"base": "EUR"}, False),
        ("Permission denied", {"result": [{"type": "text", "text": "Permission denied"}]}, False),
    ],
)
def test_json_results_toward_gemini_compare_as_values(
    content: str, response: Any, same: bool
) -> None:
    found = check_text(_under(OPENAI_CHAT, _chat(content)), _under(GEMINI, _gemini(response)))
    assert found is not None
    assert (found == []) is same


def test_json_spacing_still_counts_between_text_dialects() -> None:
    source = _under(OPENAI_CHAT, _chat('{"base": "CHF"}'))
    output = _under(OPENAI_CHAT, _chat('{"base":"CHF"}'))
    assert check_text(source, output)


def test_a_response_without_choices_gives_the_reasoning_checks_nothing_to_judge() -> None:
    source = get_codec(GEMINI).parse_response(
        {"candidates": [{"content": {}, "finishReason": "MALFORMED_FUNCTION_CALL", "index": 0}]}
    )
    output = get_codec(OPENAI_CHAT).parse_response(
        {"id": "x", "object": "chat.completion", "model": "m", "choices": []}
    )
    assert check_altered(source, output, True) is None
