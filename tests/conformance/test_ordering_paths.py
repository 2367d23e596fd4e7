"""Ordering findings name the payload's own field: ``contents[i]`` in a gemini
request, the item ``input[i]`` in an openai-responses one, ``messages[i]`` in
the chat dialects; a response's message is ``candidates[0].content`` /
``output`` / ``content`` / ``choices[0].message``. A user reading a finding
looks for that path in the payload it names."""

from __future__ import annotations

import re
from typing import Any

from tests.conformance.test_fidelity_corpus import anthropic_request, only, payload
from tests.conformance.test_ordering import (
    ASK,
    _anthropic_calls,
    _assistant_calls,
    _result,
    _tool,
    _use,
)
from toolwire.conformance import ordering
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.views import message_path, semantic_messages, text_path

_PATH = re.compile(r"\b(messages|contents|input)\[\d+\]")


def _reordered(output: PayloadUnderTest) -> Any:
    """ordering.result_order on ``output`` converted from the same talk with its
    results in call order (anthropic 'a', 'b')."""
    source = anthropic_request(
        [ASK, _anthropic_calls("a", "b"), {"role": "user", "content": [_result("a"), _result("b")]}]
    )
    conversion = ConversionUnderTest(source=source, output=output)
    return ordering.CONVERSION_CHECKS["ordering.result_order"](conversion)


def _roots(*texts: Any) -> set[str]:
    """The top-level fields the paths in ``texts`` start at."""
    return {m.group(1) for text in texts for m in _PATH.finditer(str(text))}


# --- gemini --------------------------------------------------------------------


def _gemini_call(call_id: str) -> dict[str, Any]:
    return {"functionCall": {"id": call_id, "name": "get_weather", "args": {"city": "Paris"}}}


def _gemini_result(call_id: str) -> dict[str, Any]:
    return {"functionResponse": {"id": call_id, "name": "get_weather", "response": {"t": "18C"}}}


def gemini_request(contents: list[dict[str, Any]]) -> PayloadUnderTest:
    return payload("gemini", "request", {"contents": contents})


ASK_GEMINI = {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]}


def test_a_gemini_result_order_finding_names_contents() -> None:
    request = gemini_request(
        [
            ASK_GEMINI,
            {"role": "model", "parts": [_gemini_call("a"), _gemini_call("b")]},
            {"role": "user", "parts": [_gemini_result("b"), _gemini_result("a")]},
        ]
    )
    found = only(_reordered(request))
    assert found.path == "contents[2].parts[0]"
    assert "the calls of contents[1]" in found.message
    assert _roots(found.message, found.path) == {"contents"}


def test_gemini_calls_split_over_turns_name_contents() -> None:
    # Anthropic's one turn of two calls, given to gemini as two model turns.
    source = anthropic_request(
        [ASK, _anthropic_calls("a", "b"), {"role": "user", "content": [_result("a"), _result("b")]}]
    )
    output = gemini_request(
        [
            ASK_GEMINI,
            {"role": "model", "parts": [_gemini_call("a")]},
            {"role": "user", "parts": [_gemini_result("a")]},
            {"role": "model", "parts": [_gemini_call("b")]},
            {"role": "user", "parts": [_gemini_result("b")]},
        ]
    )
    conversion = ConversionUnderTest(source=source, output=output)
    found = only(ordering.CONVERSION_CHECKS["ordering.parallel_calls_split"](conversion))
    assert (found.path, found.expected) == ("contents[3]", "contents[1]")
    assert "that messages[1] makes" in found.message  # the source is anthropic-messages
    assert "(contents[1], contents[3])" in found.message


def test_a_gemini_block_order_finding_names_contents() -> None:
    source = anthropic_request(
        [
            ASK,
            {"role": "assistant", "content": [{"type": "text", "text": "Checking."}, _use("a")]},
            {"role": "user", "content": [_result("a")]},
        ]
    )
    output = gemini_request(
        [
            ASK_GEMINI,
            {"role": "model", "parts": [_gemini_call("a"), {"text": "Checking."}]},
            {"role": "user", "parts": [_gemini_result("a")]},
        ]
    )
    conversion = ConversionUnderTest(source=source, output=output)
    found = only(ordering.CONVERSION_CHECKS["ordering.block_order"](conversion))
    assert found.path == "contents[1]"
    assert _roots(found.message) == {"contents"}


def test_gemini_text_and_response_paths() -> None:
    request = gemini_request([ASK_GEMINI])
    messages = semantic_messages(request)
    assert messages is not None
    assert text_path(request, messages[0]) == "contents[0].parts"
    response = payload(
        "gemini",
        "response",
        {
            "candidates": [
                {"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}
            ]
        },
    )
    answer = semantic_messages(response)
    assert answer is not None
    assert message_path(response, answer[0]) == "candidates[0].content"
    assert text_path(response, answer[0]) == "candidates[0].content.parts"


# --- openai-responses ------------------------------------------------------------


def _responses_call(call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
    }


def _responses_output(call_id: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "18C"}


def test_a_responses_finding_names_the_input_item() -> None:
    # Items: 0 user message, 1-2 the calls (one turn), 3-4 the outputs.
    raw = {
        "model": "gpt-4.1",
        "input": [
            {"role": "user", "content": "Weather in Paris and Rome?"},
            _responses_call("a"),
            _responses_call("b"),
            _responses_output("b"),
            _responses_output("a"),
        ],
    }
    request = payload("openai-responses", "request", raw)
    found = only(_reordered(request))
    assert found.path == "input[3]"
    assert "the calls of input[1]" in found.message
    assert _roots(found.message, found.path) == {"input"}
    conversation = request.conversation
    assert conversation is not None
    # Turn 2 (the first output) is item 3; turn 3 is item 4.
    assert [turn_path(i, conversation) for i in range(4)] == [
        "input[0]",
        "input[1]",
        "input[3]",
        "input[4]",
    ]


# --- the chat dialects keep messages[i] --------------------------------------------


def test_chat_dialects_name_messages() -> None:
    request = payload(
        "openai-chat",
        "request",
        {
            "model": "gpt-4.1",
            "messages": [ASK, _assistant_calls("a", "b"), _tool("b"), _tool("a")],
        },
    )
    found = only(_reordered(request))
    assert found.path == "messages[2]"
    assert "the calls of messages[1]" in found.message
    anthropic = anthropic_request(
        [ASK, _anthropic_calls("a", "b"), {"role": "user", "content": [_result("b"), _result("a")]}]
    )
    found = only(_reordered(anthropic))
    assert (found.path, _roots(found.message)) == ("messages[2].content[0]", {"messages"})
    assert turn_path(3) == "messages[3]"  # without a conversation: the chat layout
