"""Results are compared with the result of the same call, also where the
turns were regrouped (each parallel call in its own message, its result
after it) and the ids did not survive (a round trip through Gemini, which
drops them): each result is keyed by the call it answers, not by position."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import anthropic_request, openai_request
from toolwire.conformance.fidelity.error_flag import check_error_flag
from toolwire.conformance.fidelity.text import check_text


def _call(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "w", "arguments": "{}"}}


# The client sent the two results out of call order.
SOURCE = openai_request(
    [
        {"role": "user", "content": "Weather in Tokyo and Osaka?"},
        {"role": "assistant", "content": None, "tool_calls": [_call("call_1"), _call("call_2")]},
        {"role": "tool", "tool_call_id": "call_2", "content": "Osaka: 18 C"},
        {"role": "tool", "tool_call_id": "call_1", "content": "Tokyo: 21 C"},
    ]
)


def _regrouped(tokyo: str = "Tokyo: 21 C", text: str = "Weather in Tokyo and Osaka?") -> Any:
    return openai_request(
        [
            {"role": "user", "content": text},
            {"role": "assistant", "content": None, "tool_calls": [_call("gm_1_0")]},
            {"role": "tool", "tool_call_id": "gm_1_0", "content": tokyo},
            {"role": "assistant", "content": None, "tool_calls": [_call("gm_3_0")]},
            {"role": "tool", "tool_call_id": "gm_3_0", "content": "Osaka: 18 C"},
        ]
    )


def test_regrouped_results_with_new_ids_are_paired_by_their_calls() -> None:
    # By position, both would read as changed (Osaka's text against Tokyo's call).
    assert check_text(SOURCE, _regrouped()) == []


def test_a_changed_result_is_still_found_and_only_it() -> None:
    found = check_text(SOURCE, _regrouped(tokyo="Tokyo: 12 C"))
    assert found is not None and len(found) == 1
    assert "'21 C' became '12 C'" in found[0].message
    assert found[0].expected == "Tokyo: 21 C"


def test_changed_text_in_regrouped_turns_says_they_were_regrouped() -> None:
    found = check_text(SOURCE, _regrouped(text="Weather in Tokyo?"))
    assert found is not None and len(found) == 1
    assert "the user messages (regrouped: 2 in the source, 3 here), taken together" in (
        found[0].message
    )


def test_the_error_flag_follows_the_result_of_the_same_call() -> None:
    source = anthropic_request(
        [
            {"role": "user", "content": "Weather in Tokyo and Osaka?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": f"toolu_{n}", "name": "w", "input": {}}
                    for n in (1, 2)
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_2", "content": "Osaka: 18 C"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": "no station",
                        "is_error": True,
                    },
                ],
            },
        ]
    )
    # Back from a trip that regrouped the turns and renamed the ids, in call order.
    returned = anthropic_request(
        [
            {"role": "user", "content": "Weather in Tokyo and Osaka?"},
            {"role": "assistant", "content": [_use("gm_1_0")]},
            {"role": "user", "content": [_result("gm_1_0", "no station", True)]},
            {"role": "assistant", "content": [_use("gm_3_0")]},
            {"role": "user", "content": [_result("gm_3_0", "Osaka: 18 C", None)]},
        ]
    )
    assert check_error_flag(source, returned) == []
    assert check_text(source, returned) == []
    flipped = anthropic_request(
        [
            {"role": "user", "content": "Weather in Tokyo and Osaka?"},
            {"role": "assistant", "content": [_use("gm_1_0")]},
            {"role": "user", "content": [_result("gm_1_0", "no station", None)]},
            {"role": "assistant", "content": [_use("gm_3_0")]},
            {"role": "user", "content": [_result("gm_3_0", "Osaka: 18 C", True)]},
        ]
    )
    assert len(check_error_flag(source, flipped) or ()) == 2


def _use(call_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "w", "input": {}}


def _result(call_id: str, text: str, is_error: bool | None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    if is_error is not None:
        block["is_error"] = is_error
    return block
