"""pairing.call_id_as_item_id on hand-written openai-responses requests: a
call id or an empty string in a function_call's item id fails; fc_ ids,
another server's UUID ids and calls without an id pass or are not judged."""

from __future__ import annotations

from typing import Any

from toolwire.conformance.pairing.call_id_as_item_id import check_call_id_as_item_id
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import OPENAI_RESPONSES

CODEC = get_codec(OPENAI_RESPONSES)


def _request(item_id: str | None) -> dict[str, Any]:
    call: dict[str, Any] = {
        "type": "function_call",
        "call_id": "call_k2",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
    }
    if item_id is not None:
        call["id"] = item_id
    return {
        "model": "gpt-4.1",
        "input": [
            {"role": "user", "content": "Weather in Paris?"},
            call,
            {"type": "function_call_output", "call_id": "call_k2", "output": "18C"},
        ],
    }


def _messages(item_id: str | None) -> list[str] | None:
    found = check_call_id_as_item_id(CODEC.parse_request(_request(item_id)))
    return None if found is None else [f.message for f in found]


def test_the_call_id_in_the_item_id_fails_with_the_400_it_earns() -> None:
    (message,) = _messages("call_k2") or []
    assert "input[1]" in message and "'call_k2'" in message and "is its call_id" in message
    assert "Expected an ID that begins with 'fc'" in message


def test_an_empty_item_id_and_another_calls_id_fail() -> None:
    assert "is empty" in (_messages("") or [""])[0]
    assert "is a call id" in (_messages("call_other") or [""])[0]


def test_fc_ids_and_another_servers_ids_pass() -> None:
    assert _messages("fc_68477f0bb8e4819c") == []
    assert _messages("9c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e4f5") == []


def test_calls_without_an_item_id_are_not_judged() -> None:
    assert _messages(None) is None
