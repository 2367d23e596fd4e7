"""The reference adapter's gemini directions: ids, signatures, results, tools,
declines (docs/conventions.md, "Gemini")."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.dialects import gemini_fixtures as fx
from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.model import GEMINI

REFERENCE = ReferenceAdapter()
TARGETS = ("openai-chat", "anthropic-messages")


def _there_and_back(payload: Any, kind: str, target: str) -> tuple[Any, Any]:
    out = REFERENCE.convert(copy.deepcopy(payload), kind, GEMINI, target)  # type: ignore[arg-type]
    return out, REFERENCE.convert(out, kind, target, GEMINI)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", TARGETS)
def test_calls_results_and_signatures_come_back(target: str) -> None:
    out, back = _there_and_back(fx.SECOND_REQUEST, "request", target)
    assert back["contents"] == [
        fx.SECOND_REQUEST["contents"][0],
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {
                        "id": "pyd_ai_2c58246573624ed1a963f429338ded57",
                        "name": "get_country",
                        "args": {},
                    },
                    "thoughtSignature": fx.SIGNATURE_URLSAFE,
                }
            ],
        },
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "id": "pyd_ai_2c58246573624ed1a963f429338ded57",
                        "name": "get_country",
                        "response": {"return_value": "Mexico"},
                    }
                }
            ],
        },
    ]
    # The result of a Gemini object is its JSON text on the other side.
    assert '{\\"return_value\\":\\"Mexico\\"}' in json.dumps(out)


def test_id_less_parallel_calls_get_stable_ids_paired_by_name_and_order() -> None:
    out, back = _there_and_back(fx.PARALLEL_REPLAY, "request", "openai-chat")
    calls = out["messages"][1]["tool_calls"]
    assert [c["id"] for c in calls] == ["gm_1_0__thought__CiIBcsjafAbc", "gm_1_1"]
    tools = [m for m in out["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tools] == ["gm_1_0__thought__CiIBcsjafAbc", "gm_1_1"]
    assert [m["content"] for m in tools] == ["18C, cloudy", "Error: service down"]
    again = REFERENCE.convert(copy.deepcopy(fx.PARALLEL_REPLAY), "request", GEMINI, "openai-chat")
    assert again == out  # the same history gives the same ids
    # Back in Gemini: no invented ids, the signature on the first call only.
    parts = back["contents"][1]["parts"]
    assert [p.get("thoughtSignature") for p in parts] == ["CiIBcsjafAbc", None]
    assert all("id" not in p["functionCall"] for p in parts)
    answers = [p["functionResponse"] for p in back["contents"][2]["parts"]]
    assert answers == [
        {"name": "get_weather", "response": {"output": "18C, cloudy"}},
        {"name": "get_weather", "response": {"error": "Error: service down"}},
    ]


def test_openapi_parameters_become_json_schema() -> None:
    out = REFERENCE.convert(copy.deepcopy(fx.PARALLEL_REPLAY), "request", GEMINI, "openai-chat")
    assert out["tools"][0]["function"]["parameters"] == {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    }


@pytest.mark.parametrize("target", TARGETS)
def test_responses_and_streams_keep_the_call_signature(target: str) -> None:
    _, back = _there_and_back(fx.PARALLEL_RESPONSE, "response", target)
    assert back["candidates"][0]["content"] == fx.PARALLEL_RESPONSE["candidates"][0]["content"]
    assert back["candidates"][0]["finishReason"] == "STOP"
    events = [{"event": None, "data": chunk} for chunk in fx.CALL_STREAM]
    _, back_events = _there_and_back(events, "stream", target)
    parts = [
        part
        for event in back_events
        for candidate in event["data"].get("candidates", [])
        for part in candidate.get("content", {}).get("parts", [])
    ]
    assert [p.get("thoughtSignature") for p in parts if "functionCall" in p] == [fx.SIGNATURE_STD]


def test_thoughts_become_reasoning_and_thinking() -> None:
    chat = REFERENCE.convert(copy.deepcopy(fx.THINKING_RESPONSE), "response", GEMINI, "openai-chat")
    assert chat["choices"][0]["message"]["reasoning_content"].startswith("**A Safe")
    messages = REFERENCE.convert(
        copy.deepcopy(fx.THINKING_RESPONSE), "response", GEMINI, "anthropic-messages"
    )
    assert messages["content"][0]["type"] == "thinking"
    assert messages["content"][0]["signature"] == ""
    assert messages["usage"] == {"input_tokens": 29, "output_tokens": 1737}


def test_what_gemini_cannot_say_is_declined() -> None:
    request = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
        "parallel_tool_calls": False,
    }
    with pytest.raises(UnsupportedConversion, match="parallel"):
        REFERENCE.convert(request, "request", "openai-chat", GEMINI)
    long_name = {**request, "parallel_tool_calls": True}
    long_name["tools"] = [{"type": "function", "function": {"name": "x" * 65}}]
    with pytest.raises(UnsupportedConversion, match="gemini"):
        REFERENCE.convert(long_name, "request", "openai-chat", GEMINI)
    search = copy.deepcopy(fx.FIRST_REQUEST)
    search["tools"] = [{"googleSearch": {}}]
    with pytest.raises(UnsupportedConversion, match="googleSearch"):
        REFERENCE.convert(search, "request", GEMINI, "openai-chat")


def test_strict_tools_are_validated_mode_and_back() -> None:
    request = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f", "strict": True}}],
    }
    out = REFERENCE.convert(request, "request", "openai-chat", GEMINI)
    assert out["toolConfig"] == {"functionCallingConfig": {"mode": "VALIDATED"}}
    back = REFERENCE.convert(out, "request", GEMINI, "openai-chat")
    assert back["tools"][0]["function"]["strict"] is True


def test_the_model_comes_from_the_url_given_as_body_model() -> None:
    request = {"model": "gemini-2.5-flash", **fx.FIRST_REQUEST}
    out = REFERENCE.convert(request, "request", GEMINI, "anthropic-messages")
    assert out["model"] == "gemini-2.5-flash"
    assert "model" not in REFERENCE.convert(out, "request", "anthropic-messages", GEMINI)


def test_declared_id_mapping() -> None:
    mapping = REFERENCE.id_mapping(fx.SECOND_REQUEST, "request", GEMINI, "openai-chat")
    call_id = "pyd_ai_2c58246573624ed1a963f429338ded57"
    assert mapping == {call_id: f"{call_id}__thought__{fx.SIGNATURE_URLSAFE}"}
    out = REFERENCE.convert(copy.deepcopy(fx.SECOND_REQUEST), "request", GEMINI, "openai-chat")
    back = REFERENCE.id_mapping(out, "request", "openai-chat", GEMINI)
    assert back == {mapping[call_id]: call_id}
