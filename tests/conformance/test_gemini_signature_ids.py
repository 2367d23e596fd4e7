"""pairing.id_changed through gemini: a thoughtSignature carried in the id
(``<id>__thought__<signature>``, docs/conventions.md) is no changed id; a
different id before it is."""

from __future__ import annotations

from typing import Any

from toolwire.conformance.context import ConversionUnderTest
from toolwire.conformance.pairing import CONVERSION_CHECKS
from toolwire.harness.payloads import parse_payload

GEMINI_RESPONSE: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"id": "x1w2", "name": "get_weather", "args": {}},
                        "thoughtSignature": "c2lnbmF0dXJl",
                    }
                ],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "modelVersion": "gemini-2.5-flash",
    "responseId": "r1",
}


def _openai(call_id: str) -> Any:
    raw = {
        "id": "r1",
        "object": "chat.completion",
        "created": 0,
        "model": "gemini-2.5-flash",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": "{}"},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    return parse_payload("openai-chat", "response", raw, "openai")


def _check(call_id: str) -> Any:
    source = parse_payload("gemini", "response", GEMINI_RESPONSE, "gemini")
    return CONVERSION_CHECKS["pairing.id_changed"](ConversionUnderTest(source, _openai(call_id)))


def test_a_signature_after_the_id_is_the_same_id() -> None:
    assert _check("x1w2__thought__c2lnbmF0dXJl") == []
    assert _check("x1w2") == []


def test_another_id_before_the_signature_is_a_changed_id() -> None:
    found = _check("call_9__thought__c2lnbmF0dXJl")
    assert [f.code for f in found] == ["pairing.id_changed"]


def test_a_declared_mapping_with_the_signature_is_kept() -> None:
    source = parse_payload("gemini", "response", GEMINI_RESPONSE, "gemini")
    declared = ConversionUnderTest(
        source,
        _openai("x1w2__thought__c2lnbmF0dXJl"),
        id_mapping={"x1w2": "x1w2__thought__c2lnbmF0dXJl"},
    )
    assert CONVERSION_CHECKS["pairing.id_changed"](declared) == []
