"""The litellm-responses and litellm-gemini shims.

Without LiteLLM (``make test``): what the shims decide before calling it
(directions, server state, LiteLLM's refusals, the model named). With it
(``.venv-thirdparty/litellm``, where ``make reports`` runs them), one small
conversion per leg through LiteLLM's own code; those tests skip cleanly
elsewhere."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire.harness.adapters import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._litellm import first_data, refused
from toolwire.harness.adapters.thirdparty._offline import module_available
from toolwire.harness.adapters.thirdparty.litellm_gemini import LiteLLMGeminiAdapter, _gemini_model
from toolwire.harness.adapters.thirdparty.litellm_responses import LiteLLMResponsesAdapter

needs_litellm = pytest.mark.skipif(
    not module_available("litellm"), reason="LiteLLM lives in .venv-thirdparty/litellm"
)

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}
CHAT_RESPONSE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "gpt-4.1-mini",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
}


@pytest.mark.parametrize(
    ("cls", "direction"),
    [
        (LiteLLMResponsesAdapter, ("request", "openai-chat", "openai-responses")),
        (LiteLLMResponsesAdapter, ("stream", "openai-responses", "openai-chat")),
        (LiteLLMGeminiAdapter, ("request", "gemini", "openai-chat")),
        (LiteLLMGeminiAdapter, ("response", "openai-chat", "gemini")),
    ],
)
def test_an_undeclared_direction_is_declined(
    cls: type[Any], direction: tuple[str, str, str]
) -> None:
    shim = object.__new__(cls)  # no library needed to decline
    assert direction not in shim.directions
    with pytest.raises(UnsupportedConversion):
        shim.convert({}, *direction)


@pytest.mark.parametrize("key", ["previous_response_id", "conversation"])
def test_a_request_on_server_state_is_declined(key: str) -> None:
    shim = object.__new__(LiteLLMResponsesAdapter)
    body = {"model": "gpt-5-mini", "input": "hi", key: "resp_123"}
    with pytest.raises(UnsupportedConversion, match=key):
        shim.convert(body, "request", "openai-responses", "openai-chat")


def test_refusals_first_data_and_models() -> None:
    assert refused("litellm.BadRequestError: Invalid tool choice")
    assert refused("litellm.UnsupportedParamsError: gemini does not support parameters")
    assert not refused("litellm.APIConnectionError: boom")
    assert first_data([{"event": None, "data": "[DONE]"}, {"data": {"model": "m"}}]) == {
        "model": "m"
    }
    assert first_data([]) == {}
    assert _gemini_model("gemini-2.5-flash-lite") == "gemini-2.5-flash-lite"
    assert _gemini_model("gpt-4.1-mini") == "gemini-2.5-flash"
    assert _gemini_model(None) == "gemini-2.5-flash"


@needs_litellm
def test_responses_request_becomes_a_chat_body() -> None:
    body = {
        "model": "gpt-4.1-mini",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "Weather in Oslo?"},
            {"type": "function_call", "call_id": "call_1", "name": "get_weather",
             "arguments": '{"city": "Oslo"}'},
            {"type": "function_call_output", "call_id": "call_1", "output": "3°C"},
        ],
        "tools": [{"type": "function", **TOOL["function"]}],
    }  # fmt: skip
    sent = LiteLLMResponsesAdapter().convert(body, "request", "openai-responses", "openai-chat")
    roles = [m["role"] for m in sent["messages"]]
    assert roles == ["system", "user", "assistant", "tool"]
    assert sent["messages"][3] == {"role": "tool", "content": "3°C", "tool_call_id": "call_1"}
    assert sent["tools"][0]["function"]["name"] == "get_weather"


@needs_litellm
def test_responses_response_and_stream_carry_the_call() -> None:
    shim = LiteLLMResponsesAdapter()
    response = shim.convert(CHAT_RESPONSE, "response", "openai-chat", "openai-responses")
    (call,) = [item for item in response["output"] if item["type"] == "function_call"]
    assert (call["call_id"], json.loads(call["arguments"])) == ("call_1", {"city": "Oslo"})
    chunk = {k: v for k, v in CHAT_RESPONSE.items() if k not in ("choices", "usage")}
    chunk["object"] = "chat.completion.chunk"
    delta = {
        "role": "assistant",
        "tool_calls": [{"index": 0, **CHAT_RESPONSE["choices"][0]["message"]["tool_calls"][0]}],
    }
    last = {"index": 0, "delta": {}, "finish_reason": "tool_calls"}
    events = [
        {"event": None, "data": {**chunk, "choices": [{"index": 0, "delta": delta}]}},
        {"event": None, "data": {**chunk, "choices": [last]}},
        {"event": None, "data": {**chunk, "choices": [], "usage": CHAT_RESPONSE["usage"]}},
        {"event": None, "data": "[DONE]"},
    ]  # fmt: skip
    stream = shim.convert(events, "stream", "openai-chat", "openai-responses")
    types = [event["data"]["type"] for event in stream]
    assert types[0] == "response.created" and types[-1] == "response.completed"
    assert "response.function_call_arguments.delta" in types


CALL = {"name": "get_weather", "args": {"city": "Oslo"}}


@needs_litellm
def test_gemini_request_response_and_stream() -> None:
    shim = LiteLLMGeminiAdapter()
    body = {
        "model": "gpt-4.1-mini",
        "messages": [{"role": "user", "content": "Oslo?"}],
        "tools": [TOOL],
    }
    sent = shim.convert(body, "request", "openai-chat", "gemini")
    assert sent["tools"][0]["function_declarations"][0]["name"] == "get_weather"
    assert "model" not in sent
    answer = {  # CALL: the call Gemini answers with
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"functionCall": CALL}]},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 3, "totalTokenCount": 8},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1",
    }  # fmt: skip
    response = shim.convert(answer, "response", "gemini", "openai-chat")
    choice = response["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert json.loads(choice["message"]["tool_calls"][0]["function"]["arguments"]) == {
        "city": "Oslo"
    }
    stream = shim.convert([{"event": None, "data": answer}], "stream", "gemini", "openai-chat")
    assert stream[-1]["data"] == "[DONE]"
    calls = [
        c
        for e in stream[:-1]
        for ch in e["data"]["choices"]
        for c in ch["delta"].get("tool_calls") or []
    ]
    assert calls and calls[0]["function"]["name"] == "get_weather"
