"""fidelity.text compares each call's result, and a Gemini result without an id
answers the first open call of its name (by name and order: docs/conventions.md,
"Ids and thought signatures"; https://ai.google.dev/gemini-api/docs/function-calling).

Two parallel calls of one tool, answered out of call order with ids (openai-chat):
toward Gemini without ids, the results must follow the calls, or each call gets
the other's result. And from Gemini without ids, a converter that gives the
results ids must give each the id of the call it answered by name and order.
"""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import conversion_codes, openai_request, payload

PARIS, ROME = '{"city": "Paris", "temp": 18}', '{"city": "Rome", "temp": 24}'


def _call(call_id: str, city: str) -> dict[str, Any]:
    arguments = f'{{"city": "{city}"}}'
    return {"id": call_id, "type": "function", "function": {"name": "w", "arguments": arguments}}


def _openai(results: list[tuple[str, str]]) -> Any:
    return openai_request(
        [
            {"role": "user", "content": "Weather in Paris and Rome?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("a", "Paris"), _call("b", "Rome")],
            },
            *({"role": "tool", "tool_call_id": i, "content": text} for i, text in results),
        ]
    )


def _gemini(results: list[tuple[str | None, str]], call_ids: bool = False) -> Any:
    def call(call_id: str, city: str) -> dict[str, Any]:
        found: dict[str, Any] = {"name": "w", "args": {"city": city}}
        return {"functionCall": {**found, "id": call_id} if call_ids else found}

    def answer(call_id: str | None, text: str) -> dict[str, Any]:
        found: dict[str, Any] = {"name": "w", "response": {"output": text}}
        return {"functionResponse": {**found, "id": call_id} if call_id else found}

    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]},
            {"role": "model", "parts": [call("a", "Paris"), call("b", "Rome")]},
            {"role": "user", "parts": [answer(i, text) for i, text in results]},
        ]
    }
    return payload("gemini", "request", body)


SOURCE = _openai([("b", ROME), ("a", PARIS)])  # out of call order, paired by id


def test_ids_dropped_and_results_left_out_of_order_answer_the_wrong_calls() -> None:
    output = _gemini([(None, ROME), (None, PARIS)])
    assert "fidelity.text" in conversion_codes(SOURCE, output)


def test_ids_dropped_and_results_in_call_order_say_the_same() -> None:
    assert "fidelity.text" not in conversion_codes(SOURCE, _gemini([(None, PARIS), (None, ROME)]))


def test_ids_kept_in_any_order_say_the_same() -> None:
    output = _gemini([("b", ROME), ("a", PARIS)], call_ids=True)
    assert "fidelity.text" not in conversion_codes(SOURCE, output)


def test_from_gemini_without_ids_each_result_keeps_the_call_it_answered() -> None:
    source = _gemini([(None, PARIS), (None, ROME)])  # Paris answers call 1, Rome call 2
    right = _openai([("b", ROME), ("a", PARIS)])
    wrong = _openai([("a", ROME), ("b", PARIS)])
    assert "fidelity.text" not in conversion_codes(source, right)
    assert "fidelity.text" in conversion_codes(source, wrong)
