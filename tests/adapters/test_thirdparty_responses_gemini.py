"""The openai-agents-responses and anyllm-gemini shims.

Without their libraries (toolwire's own environment): what a user without the
extra sees, the declarations, and the pure parts of toolwire's own legs. With
them (``.venv-thirdparty/openai-agents``, ``.venv-thirdparty/anyllm``): one
conversion per direction through the library, offline.
"""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from toolwire.harness.adapters import UnsupportedConversion
from toolwire.harness.adapters import loader as loader_module
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.adapters.thirdparty import openai_agents_responses as agents_shim
from toolwire.harness.adapters.thirdparty._offline import module_available
from toolwire.harness.adapters.thirdparty.anyllm_gemini import AnyLLMGeminiAdapter
from toolwire.harness.adapters.thirdparty.openai_agents_responses import (
    OpenAIAgentsResponsesAdapter,
)
from toolwire.harness.errors import AdapterLoadError

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
TABLE = Path(__file__).resolve().parents[2] / "reports" / "thirdparty.toml"

# adapter name -> (class, extra, the module whose absence is reported)
SHIMS: dict[str, tuple[type[Any], str, str]] = {
    "openai-agents-responses": (OpenAIAgentsResponsesAdapter, "openai-agents", "agents"),
    "anyllm-gemini": (AnyLLMGeminiAdapter, "anyllm", "any_llm"),
}


def _pyproject() -> dict[str, Any]:
    with PYPROJECT.open("rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("name", sorted(SHIMS))
def test_loading_without_the_library_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    _cls, extra, module = SHIMS[name]
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    value = _pyproject()["project"]["entry-points"]["toolwire.adapters"][name]
    registered = [EntryPoint(name=name, value=value, group=loader_module.ENTRY_POINT_GROUP)]

    def fake_entry_points(*, group: str, name: str | None = None) -> list[EntryPoint]:
        return [ep for ep in registered if ep.group == group and name in (None, ep.name)]

    monkeypatch.setattr(loader_module, "entry_points", fake_entry_points)
    with pytest.raises(AdapterLoadError) as caught:
        load_adapter(name)
    message = str(caught.value)
    assert f"install toolwire[{extra}]" in message
    assert repr(name) in message and module in message
    assert "\n" not in message
    assert caught.value.exit_code == 2


@pytest.mark.parametrize("name", sorted(SHIMS))
def test_each_shim_is_registered_with_its_extra_and_reported(name: str) -> None:
    cls, extra, _module = SHIMS[name]
    project = _pyproject()["project"]
    module_name, _, attribute = project["entry-points"]["toolwire.adapters"][name].partition(":")
    assert getattr(importlib.import_module(module_name), attribute) is cls
    assert cls.name == name
    assert any("==" in pin for pin in project["optional-dependencies"][extra])
    with TABLE.open("rb") as handle:
        assert tomllib.load(handle)["adapters"][name] == extra


def test_the_anyllm_extra_pins_its_gemini_provider() -> None:
    pins = _pyproject()["project"]["optional-dependencies"]["anyllm"]
    assert any(pin.startswith("any-llm-sdk[") and "gemini" in pin for pin in pins)


@pytest.mark.parametrize(
    ("cls", "direction"),
    [
        (OpenAIAgentsResponsesAdapter, ("request", "openai-chat", "openai-responses")),
        (OpenAIAgentsResponsesAdapter, ("response", "openai-responses", "openai-chat")),
        (AnyLLMGeminiAdapter, ("request", "gemini", "openai-chat")),
        (AnyLLMGeminiAdapter, ("stream", "openai-chat", "gemini")),
    ],
)
def test_an_undeclared_direction_is_declined(
    cls: type[Any], direction: tuple[str, str, str]
) -> None:
    shim = object.__new__(cls)  # no library needed to decline
    assert direction not in shim.directions
    with pytest.raises(UnsupportedConversion):
        shim.convert({}, *direction)


def test_anyllm_gemini_declines_another_vendors_request_fields() -> None:
    shim = object.__new__(AnyLLMGeminiAdapter)
    body = {"model": "glm-4.6", "messages": [], "thinking": {"type": "enabled"}}
    with pytest.raises(UnsupportedConversion, match="thinking"):
        shim.convert(body, "request", "openai-chat", "gemini")


# --- toolwire's own legs --------------------------------------------------------


def test_responses_settings_become_the_model_settings_fields() -> None:
    body = {
        "model": "gpt-5",
        "input": [],
        "temperature": 0.2,
        "max_output_tokens": 512,
        "parallel_tool_calls": False,
        "tool_choice": {"type": "function", "name": "get_weather"},
        "reasoning": {"effort": "low", "summary": None},
        "text": {"verbosity": "low", "format": {"type": "text"}},
        "store": False,
        "include": ["reasoning.encrypted_content"],
    }
    assert agents_shim.settings_fields(body) == {
        "temperature": 0.2,
        "max_tokens": 512,
        "parallel_tool_calls": False,
        "tool_choice": "get_weather",
        "reasoning": {"effort": "low"},
        "verbosity": "low",
        "store": False,
        "response_include": ["reasoning.encrypted_content"],
    }
    assert agents_shim.settings_fields({"tool_choice": "required"}) == {"tool_choice": "required"}


@pytest.mark.parametrize(
    "body",
    [
        {"tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": []}},
        {"tool_choice": {"type": "web_search_preview"}},
        {"text": {"format": {"type": "json_schema", "name": "x", "schema": {}}}},
    ],
)
def test_settings_without_a_model_settings_form_are_declined(body: dict[str, Any]) -> None:
    with pytest.raises(UnsupportedConversion):
        agents_shim.settings_fields(body)


def test_the_response_wrapping_is_a_response_object() -> None:
    items = [{"id": "__fake_id__", "type": "function_call", "call_id": "c", "name": "f"}]
    usage = {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}
    body = agents_shim.wrap_response(items, usage, "gpt-4.1", 1761312000, "__fake_id__")
    assert body == {
        "id": "__fake_id__",
        "object": "response",
        "created_at": 1761312000,
        "status": "completed",
        "model": "gpt-4.1",
        "output": items,
        "usage": usage,
    }
    assert "usage" not in agents_shim.wrap_response([], None, "m", None, "x")


# --- through the libraries, when installed ----------------------------------------

needs_agents = pytest.mark.skipif(
    not module_available("agents"),
    reason="openai-agents is not installed (toolwire[openai-agents])",
)
needs_anyllm = pytest.mark.skipif(
    not (module_available("any_llm") and module_available("google.genai")),
    reason="any-llm's gemini provider is not installed (toolwire[anyllm])",
)

_CHAT_CALL = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1761312000,
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
                        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
}


@needs_agents
def test_agents_request_response_and_stream_through_the_sdk() -> None:
    shim = OpenAIAgentsResponsesAdapter()
    request = {
        "model": "gpt-4.1-mini",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": "{}",
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        ],
        "tools": [{"type": "function", "name": "get_weather", "parameters": {}, "strict": False}],
    }
    body = shim.convert(request, "request", "openai-responses", "openai-chat")
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "tool"]
    assert body["messages"][2]["tool_calls"][0]["id"] == "call_1"

    response = shim.convert(_CHAT_CALL, "response", "openai-chat", "openai-responses")
    (call,) = [item for item in response["output"] if item["type"] == "function_call"]
    assert call["call_id"] == "call_1" and response["status"] == "completed"

    chunk = {k: v for k, v in _CHAT_CALL.items() if k not in ("choices", "usage")}
    delta = {
        "role": "assistant",
        "tool_calls": [{"index": 0, **_CHAT_CALL["choices"][0]["message"]["tool_calls"][0]}],
    }
    chunks = [
        {
            **chunk,
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        },
        {
            **chunk,
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
        },
    ]
    events = [{"event": None, "data": c} for c in chunks] + [{"event": None, "data": "[DONE]"}]
    out = shim.convert(events, "stream", "openai-chat", "openai-responses")
    assert out[0]["event"] == "response.created" and out[-1]["event"] == "response.completed"
    assert all(e["event"] == e["data"]["type"] for e in out)


@needs_anyllm
def test_anyllm_gemini_request_and_response_through_google_genai() -> None:
    shim = AnyLLMGeminiAdapter()
    request = {
        "model": "gpt-4.1-mini",
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            _CHAT_CALL["choices"][0]["message"],
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
    }
    body = shim.convert(request, "request", "openai-chat", "gemini")
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    answer = body["contents"][2]["parts"][0]["functionResponse"]
    assert answer["response"] == {"result": "sunny"} and "model" not in body
    gemini = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}],
                },
                "finishReason": "STOP",
            }
        ],
        "responseId": "r1",
    }
    completion = shim.convert(gemini, "response", "gemini", "openai-chat")
    call = completion["choices"][0]["message"]["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"city": "Oslo"}
    assert completion["choices"][0]["finish_reason"] == "tool_calls"
