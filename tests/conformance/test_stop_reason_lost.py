"""fidelity.stop_reason on an output whose choices (candidates) list is empty.

The stop reason is lost with the choice, as with a null finish_reason: a
finding where the source's stop reason has a documented equivalent, and no
verdict where it has none (Gemini MALFORMED_FUNCTION_CALL), whatever the
converter did with it (docs/conventions.md, "Stop reasons")."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import (
    anthropic_response,
    only,
    openai_response,
    payload,
)
from toolwire.conformance import fidelity
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.schema.validation import check_response

CODE = "fidelity.stop_reason"
USAGE = {"prompt_tokens": 71, "completion_tokens": 0, "total_tokens": 71}


def stop_check(source: PayloadUnderTest, output: PayloadUnderTest) -> Any:
    return fidelity.CONVERSION_CHECKS[CODE](ConversionUnderTest(source=source, output=output))


def no_choice(dialect: str = "openai-chat") -> PayloadUnderTest:
    raw = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1750000000,
        "model": "gemini-2.5-flash",
        "choices": [],
        "usage": USAGE,
    }
    return payload(dialect, "response", raw)


def gemini_response(candidates: list[dict[str, Any]]) -> PayloadUnderTest:
    raw = {
        "candidates": candidates,
        "usageMetadata": {"promptTokenCount": 71, "totalTokenCount": 71},
        "modelVersion": "gemini-2.5-flash",
    }
    return payload("gemini", "response", raw)


MALFORMED = gemini_response(
    [
        {
            "content": {},
            "finishReason": "MALFORMED_FUNCTION_CALL",
            "finishMessage": "Malformed function call: print(default_api.book_table(",
            "index": 0,
        }
    ]
)
EMPTY_STOP = gemini_response(
    [{"content": {"role": "model", "parts": []}, "finishReason": "STOP", "index": 0}]
)


def test_an_empty_answer_whose_choice_is_dropped_loses_its_stop_reason() -> None:
    found = only(stop_check(anthropic_response([], "end_turn"), no_choice()))
    assert (found.path, found.expected, found.actual) == ("choices", "stop", [])
    assert "'end_turn'" in found.message and "choices list is empty" in found.message


def test_a_gemini_stop_dropped_with_its_candidate() -> None:
    found = only(stop_check(EMPTY_STOP, no_choice()))
    assert (found.path, found.expected) == ("choices", "stop")


def test_the_empty_list_is_no_schema_violation() -> None:
    # OpenAI sets no minimum on choices: the loss is fidelity's, not the schema's.
    assert check_response(no_choice()) == []


def test_a_malformed_function_call_has_no_equivalent_so_no_verdict() -> None:
    # any-llm's output (choices: []) and a converter that keeps an empty choice
    # with some finish_reason both make a choice no documentation prescribes.
    assert stop_check(MALFORMED, no_choice()) is None
    kept = openai_response({"content": None}, "stop", USAGE)
    assert stop_check(MALFORMED, kept) is None


def test_a_kept_empty_choice_passes() -> None:
    # Correct and different from the reference's null content: an empty string.
    kept = openai_response({"content": ""}, "stop", USAGE)
    assert stop_check(anthropic_response([], "end_turn"), kept) == []
    assert stop_check(EMPTY_STOP, kept) == []


def test_a_source_with_no_choice_is_not_judged() -> None:
    # Nothing was there to lose (the gemini codec refuses a response with no
    # candidate outright: it never reaches the rule).
    assert stop_check(no_choice(), no_choice()) is None
    assert stop_check(no_choice(), anthropic_response([], "end_turn")) is None
