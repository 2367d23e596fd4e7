"""The shims of LangChain, pydantic-ai, openai-agents and sglang, without their libraries.

The libraries live in their own environments (``make reports``); here they
are absent (or hidden), so these tests check what a user without the extra
sees, the declarations, and the pure parts of toolwire's own legs.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from toolwire.harness.adapters import UnsupportedConversion
from toolwire.harness.adapters import loader as loader_module
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.adapters.thirdparty import _envelopes, _offline
from toolwire.harness.adapters.thirdparty import _pydantic_ai_history as pydantic_history
from toolwire.harness.adapters.thirdparty.langchain_adapter import LangChainAdapter
from toolwire.harness.adapters.thirdparty.openai_agents_adapter import OpenAIAgentsAdapter
from toolwire.harness.adapters.thirdparty.pydantic_ai_adapter import PydanticAIAdapter
from toolwire.harness.adapters.thirdparty.sglang_qwen_adapter import SGLangQwenAdapter
from toolwire.harness.errors import AdapterLoadError

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# adapter name -> (class, extra, a module its library provides)
SHIMS: dict[str, tuple[type[Any], str, tuple[str, ...]]] = {
    "langchain": (LangChainAdapter, "langchain", ("langchain_core", "langchain_anthropic")),
    "pydantic-ai": (PydanticAIAdapter, "pydantic-ai", ("pydantic_ai",)),
    "openai-agents": (OpenAIAgentsAdapter, "openai-agents", ("agents",)),
    "sglang-qwen": (SGLangQwenAdapter, "sglang-qwen", ("sglang",)),
}


def _hide(monkeypatch: pytest.MonkeyPatch, modules: tuple[str, ...]) -> None:
    # sys.modules[name] = None makes `import name` fail, as if not installed.
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def _pyproject() -> dict[str, Any]:
    with PYPROJECT.open("rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("name", sorted(SHIMS))
def test_building_a_shim_without_its_library_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    cls, extra, modules = SHIMS[name]
    _hide(monkeypatch, modules)
    with pytest.raises(AdapterLoadError) as caught:
        cls()
    message = str(caught.value)
    assert f"install toolwire[{extra}]" in message
    assert name in message
    assert modules[0] in message
    assert "\n" not in message


@pytest.mark.parametrize("name", sorted(SHIMS))
def test_loading_a_shim_by_its_entry_point_without_its_library(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    _cls, extra, modules = SHIMS[name]
    _hide(monkeypatch, modules)
    value = _pyproject()["project"]["entry-points"]["toolwire.adapters"][name]
    registered = [EntryPoint(name=name, value=value, group=loader_module.ENTRY_POINT_GROUP)]

    def fake_entry_points(*, group: str, name: str | None = None) -> list[EntryPoint]:
        return [ep for ep in registered if ep.group == group and name in (None, ep.name)]

    monkeypatch.setattr(loader_module, "entry_points", fake_entry_points)
    with pytest.raises(AdapterLoadError) as caught:
        load_adapter(name)
    assert f"install toolwire[{extra}]" in str(caught.value)
    assert caught.value.exit_code == 2  # a usage error, not a broken run


def test_every_shim_is_registered_with_an_extra_and_an_importable_class() -> None:
    project = _pyproject()["project"]
    registered = project["entry-points"]["toolwire.adapters"]
    for name, (cls, extra, _modules) in SHIMS.items():
        module_name, _, attribute = registered[name].partition(":")
        assert getattr(importlib.import_module(module_name), attribute) is cls
        assert cls.name == name
        pins = project["optional-dependencies"][extra]
        assert pins, f"extra {extra} is empty"
    assert "toolwire.harness.adapters.thirdparty" in _pyproject()["tool"]["setuptools"]["packages"]


def test_importing_the_shims_imports_no_library() -> None:
    for _cls, _extra, modules in SHIMS.values():
        for name in modules:
            assert sys.modules.get(name) is None or name not in sys.modules


@pytest.mark.parametrize(
    ("cls", "direction"),
    [
        (LangChainAdapter, ("stream", "openai-chat", "anthropic-messages")),
        (PydanticAIAdapter, ("response", "openai-chat", "anthropic-messages")),
        (OpenAIAgentsAdapter, ("request", "openai-chat", "anthropic-messages")),
        (SGLangQwenAdapter, ("request", "qwen-xml", "openai-chat")),
    ],
)
def test_an_undeclared_direction_is_declined(
    cls: type[Any], direction: tuple[str, str, str]
) -> None:
    shim = object.__new__(cls)  # no library needed to decline
    assert direction not in shim.directions
    with pytest.raises(UnsupportedConversion):
        shim.convert({}, *direction)


@pytest.mark.parametrize(
    "choice", ["required", {"type": "function", "function": {"name": "get_weather"}}]
)
def test_sglang_declines_forced_tool_choice(choice: Any) -> None:
    shim = object.__new__(SGLangQwenAdapter)
    with pytest.raises(UnsupportedConversion, match="JSON array"):
        shim.convert({}, "response", "qwen-xml", "openai-chat", request={"tool_choice": choice})


def test_require_reports_the_installed_version() -> None:
    assert _offline.require("x", "x", ("yaml",), "PyYAML")[0].isdigit()
    assert _offline.require("x", "x", ("yaml",), "no-such-distribution-toolwire") == "unknown"
    assert not _offline.module_available("no_such_module_toolwire")


def test_plain_json_refuses_library_objects() -> None:
    assert _offline.plain_json({"a": [1, None, "é"]}) == {"a": [1, None, "é"]}
    with pytest.raises(TypeError, match="not JSON"):
        _offline.plain_json({"a": object()})


# --- toolwire's own legs --------------------------------------------------------


def test_openai_envelope_maps_stop_reason_and_usage() -> None:
    source = {"id": "msg_1", "model": "claude-x", "stop_reason": "tool_use"}
    body = _envelopes.openai_completion(
        source,
        {"role": "assistant", "content": None},
        "tool_use",
        {"input_tokens": 12, "output_tokens": 5, "total_tokens": 17},
    )
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert body["usage"] == {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
    assert body["id"] == "msg_1"
    unknown = _envelopes.openai_completion(source, {}, "mystery", None)
    assert unknown["choices"][0]["finish_reason"] == "mystery"  # never guessed
    assert "usage" not in unknown


def test_anthropic_envelope_reads_stop_with_calls_as_tool_use() -> None:
    formatted = [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "c", "name": "f", "input": {}}],
        }
    ]
    body = _envelopes.anthropic_message({"id": "x"}, formatted, "stop", {"input_tokens": 3})
    assert body["stop_reason"] == "tool_use"
    assert body["usage"] == {"input_tokens": 3, "output_tokens": 0}
    text = _envelopes.anthropic_message({}, [{"role": "assistant", "content": "hi"}], "length", {})
    assert text["content"] == [{"type": "text", "text": "hi"}]
    assert text["stop_reason"] == "max_tokens"
    empty = _envelopes.anthropic_message({}, [{"role": "assistant", "content": ""}], "stop", {})
    assert empty["content"] == [] and empty["stop_reason"] == "end_turn"


@pytest.mark.parametrize(
    ("body", "dialect", "expected"),
    [
        ({"tool_choice": "required"}, "openai-chat", {"tool_choice": "required"}),
        (
            {"tool_choice": {"type": "function", "function": {"name": "f"}}},
            "openai-chat",
            {"tool_choice": ["f"]},
        ),
        (
            {"tool_choice": {"type": "any", "disable_parallel_tool_use": True}},
            "anthropic-messages",
            {"tool_choice": "required", "parallel_tool_calls": False},
        ),
        (
            {"tool_choice": {"type": "tool", "name": "g"}, "max_tokens": 9},
            "anthropic-messages",
            {"tool_choice": ["g"], "max_tokens": 9},
        ),
        (
            {"thinking": {"type": "enabled"}, "reasoning_effort": "high", "stop": "END"},
            "deepseek-chat",
            {"thinking": "high", "stop_sequences": ["END"]},
        ),
        ({"thinking": {"type": "disabled"}}, "deepseek-chat", {"thinking": False}),
        ({}, "openai-chat", {}),
    ],
)
def test_pydantic_ai_settings_from_the_source_request(
    body: dict[str, Any], dialect: str, expected: dict[str, Any]
) -> None:
    assert pydantic_history.settings_from(body, dialect) == expected
