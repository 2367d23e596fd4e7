"""The LiteLLM, any-llm and aisuite shims, without their libraries.

The libraries live in their own environments (``make reports``); here they
are absent (or hidden), so these tests check what a user without the extra
sees, the declarations, and the offline plumbing (``_replay``).
"""

from __future__ import annotations

import json
import socket
import sys
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from toolwire.harness.adapters import loader as loader_module
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.adapters.thirdparty import _replay
from toolwire.harness.errors import AdapterLoadError

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# adapter name -> (module:class, extra, the module whose absence is reported)
SHIMS: dict[str, tuple[str, str, str]] = {
    "litellm-anthropic-messages": (
        "toolwire.harness.adapters.thirdparty.litellm_messages:LiteLLMAnthropicMessagesAdapter",
        "litellm",
        "litellm",
    ),
    "litellm-anthropic-chat": (
        "toolwire.harness.adapters.thirdparty.litellm_chat:LiteLLMAnthropicChatAdapter",
        "litellm",
        "litellm",
    ),
    "litellm-deepseek": (
        "toolwire.harness.adapters.thirdparty.litellm_deepseek:LiteLLMDeepSeekAdapter",
        "litellm",
        "litellm",
    ),
    "litellm-responses": (
        "toolwire.harness.adapters.thirdparty.litellm_responses:LiteLLMResponsesAdapter",
        "litellm",
        "litellm",
    ),
    "litellm-gemini": (
        "toolwire.harness.adapters.thirdparty.litellm_gemini:LiteLLMGeminiAdapter",
        "litellm",
        "litellm",
    ),
    "anyllm-anthropic": (
        "toolwire.harness.adapters.thirdparty.anyllm_anthropic:AnyLLMAnthropicAdapter",
        "anyllm",
        "any_llm",
    ),
    "anyllm-messages": (
        "toolwire.harness.adapters.thirdparty.anyllm_messages:AnyLLMMessagesAdapter",
        "anyllm",
        "any_llm",
    ),
    "anyllm-deepseek": (
        "toolwire.harness.adapters.thirdparty.anyllm_deepseek:AnyLLMDeepSeekAdapter",
        "anyllm",
        "any_llm",
    ),
    "aisuite-anthropic": (
        "toolwire.harness.adapters.thirdparty.aisuite_anthropic:AisuiteAnthropicAdapter",
        "aisuite",
        "aisuite",
    ),
    "aisuite-deepseek": (
        "toolwire.harness.adapters.thirdparty.aisuite_deepseek:AisuiteDeepSeekAdapter",
        "aisuite",
        "aisuite",
    ),
}


def _pyproject() -> dict[str, Any]:
    with PYPROJECT.open("rb") as handle:
        return tomllib.load(handle)


def _use_pyproject_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resolve names from pyproject.toml, whether or not this install is up to date."""
    table = _pyproject()["project"]["entry-points"]["toolwire.adapters"]
    group = loader_module.ENTRY_POINT_GROUP
    registered = [EntryPoint(name=n, value=v, group=group) for n, v in table.items()]

    def fake_entry_points(*, group: str, name: str | None = None) -> list[EntryPoint]:
        return [ep for ep in registered if ep.group == group and name in (None, ep.name)]

    monkeypatch.setattr(loader_module, "entry_points", fake_entry_points)


@pytest.mark.parametrize("name", sorted(SHIMS))
def test_loading_by_name_without_the_library_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    _target, extra, module = SHIMS[name]
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    _use_pyproject_entry_points(monkeypatch)
    with pytest.raises(AdapterLoadError) as caught:
        load_adapter(name)
    message = str(caught.value)
    assert f"install toolwire[{extra}]" in message
    assert repr(name) in message
    assert module in message
    assert "\n" not in message
    assert caught.value.exit_code == 2


@pytest.mark.parametrize("name", sorted(SHIMS))
def test_every_shim_is_registered_with_its_class_and_extra(name: str) -> None:
    target, extra, _module = SHIMS[name]
    project = _pyproject()["project"]
    assert project["entry-points"]["toolwire.adapters"][name] == target
    pins = project["optional-dependencies"][extra]
    assert any("==" in pin for pin in pins), f"toolwire[{extra}] pins no version: {pins}"


def test_importing_the_shims_needs_none_of_the_libraries() -> None:
    for target, _extra, module in SHIMS.values():
        assert module not in sys.modules or sys.modules[module] is None
        __import__(target.partition(":")[0])
        assert module not in sys.modules or sys.modules[module] is None


def test_unknown_third_party_name_suggests_the_close_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _use_pyproject_entry_points(monkeypatch)
    with pytest.raises(AdapterLoadError, match="did you mean 'litellm-deepseek'"):
        load_adapter("litellm-deepsek")


def test_event_stream_round_trips_the_protocol_form() -> None:
    events = [
        {"event": "message_start", "data": {"type": "message_start", "n": "é"}},
        {"event": None, "data": "[DONE]"},
    ]
    text = _replay.event_stream(events)
    assert text == (
        'event: message_start\ndata: {"type": "message_start", "n": "é"}\n\ndata: [DONE]\n\n'
    )
    assert _replay.stream_data(events) == [{"type": "message_start", "n": "é"}]


class _Model:
    """Stands for a pydantic object: what dump() asks of it."""

    def __init__(self) -> None:
        self.calls: list[dict[str, bool]] = []

    def model_dump_json(self, **options: bool) -> str:
        self.calls.append(options)
        return json.dumps({"choices": [], "usage": None})


def test_dump_writes_set_fields_by_wire_name_and_chunks_end_with_done() -> None:
    model = _Model()
    assert _replay.dump(model) == {"choices": [], "usage": None}
    assert model.calls == [{"by_alias": True, "exclude_unset": True, "exclude_none": False}]
    events = _replay.chunk_events([_Model(), _Model()], exclude_none=True)
    assert [event["data"] for event in events][-1] == "[DONE]"
    assert len(events) == 3


def test_forbid_network_refuses_remote_addresses_and_keeps_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The guard lasts for the process it is installed in: undo it after this test.
    monkeypatch.setattr(socket.socket, "connect", socket.socket.connect)
    monkeypatch.setattr(socket.socket, "connect_ex", socket.socket.connect_ex)
    monkeypatch.setattr(_replay, "_guard_installed", False)
    _replay.forbid_network()
    remote = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(_replay.NetworkForbidden, match="offline"):
            remote.connect(("192.0.2.1", 443))  # TEST-NET-1: never routed
    finally:
        remote.close()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        client.connect(server.getsockname())  # loopback still works
    finally:
        client.close()
        server.close()
