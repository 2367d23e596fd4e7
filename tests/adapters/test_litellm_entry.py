"""Where each LiteLLM release keeps the shims' entry points, without LiteLLM:
fake modules shaped like the releases' (the real check is the history run,
python -m toolwire.harness.reports.thirdparty --history litellm)."""

from __future__ import annotations

import sys
import types
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from toolwire.harness.adapters.thirdparty import _litellm_entry as entry

EXPERIMENTAL, PASS_THROUGH, MESSAGES = (
    "litellm.llms.anthropic.experimental_pass_through.adapters",
    "litellm.llms.anthropic.pass_through.adapters",
    "litellm.llms.anthropic.messages.adapters",
)


def _install(monkeypatch: pytest.MonkeyPatch, name: str, **attributes: Any) -> None:
    module = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)


def _only(monkeypatch: pytest.MonkeyPatch, present: str) -> None:
    """A release that has ``present`` and neither of the other packages."""
    for package in (EXPERIMENTAL, PASS_THROUGH, MESSAGES):
        if package == present:
            _install(monkeypatch, f"{package}.handler", where=package)
        else:
            # None in sys.modules: `import` raises ModuleNotFoundError naming it.
            monkeypatch.setitem(sys.modules, package, None)
            monkeypatch.setitem(sys.modules, f"{package}.handler", None)


@pytest.mark.parametrize("present", [EXPERIMENTAL, PASS_THROUGH, MESSAGES])
def test_the_adapter_package_is_found_wherever_the_release_keeps_it(
    monkeypatch: pytest.MonkeyPatch, present: str
) -> None:
    _only(monkeypatch, present)
    assert entry.adapters_module("handler").where == present


def test_no_known_place_is_one_line_naming_the_places(monkeypatch: pytest.MonkeyPatch) -> None:
    for package in entry.ADAPTER_PACKAGES:
        monkeypatch.setitem(sys.modules, f"{package}.handler", None)
        monkeypatch.setitem(sys.modules, package, None)
    with pytest.raises(ModuleNotFoundError) as caught:
        entry.adapters_module("handler")
    message = str(caught.value)
    assert "\n" not in message
    assert all(package in message for package in entry.ADAPTER_PACKAGES)


def test_a_dependency_missing_inside_the_package_is_not_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(name: str) -> Any:
        if name.startswith(MESSAGES):
            raise ModuleNotFoundError("No module named 'mcp'", name="mcp")
        raise AssertionError(f"looked further, at {name}")

    monkeypatch.setattr(entry, "load", broken)
    with pytest.raises(ModuleNotFoundError, match="mcp"):
        entry.adapters_module("handler")


class _Old:
    """1.80: no output_format parameter, the arguments returned alone."""

    @staticmethod
    def _prepare_completion_kwargs(
        *,
        max_tokens: int,
        messages: list[Any],
        model: str,
        tools: list[Any] | None = None,
        extra_kwargs: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {"model": model, "named": sorted(["max_tokens", "messages", "tools"]),
                "extra": extra_kwargs}  # fmt: skip


class _New:
    """1.85 and later: output_format by name, (arguments, tool names) returned."""

    @staticmethod
    def _prepare_completion_kwargs(
        *,
        max_tokens: int,
        messages: list[Any],
        model: str,
        tools: list[Any] | None = None,
        output_format: dict[str, Any] | None = None,
        extra_kwargs: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, str]]:
        return {"model": model, "output_format": output_format, "extra": extra_kwargs}, {}


BODY = {
    "model": "claude-x",
    "max_tokens": 10,
    "messages": [],
    "tools": [],
    "output_format": {"type": "json_schema"},
    "service_tier": "auto",
}


def test_what_an_old_release_does_not_name_goes_in_extra_kwargs() -> None:
    kwargs = entry.completion_kwargs(_Old, "openai/m", BODY, {"drop_params": True})
    assert kwargs["model"] == "openai/m"
    assert kwargs["extra"] == {
        "output_format": {"type": "json_schema"},
        "service_tier": "auto",
        "drop_params": True,
    }


def test_a_new_release_takes_output_format_by_name_and_returns_a_pair() -> None:
    kwargs = entry.completion_kwargs(_New, "openai/m", BODY, {"drop_params": True})
    assert kwargs["output_format"] == {"type": "json_schema"}
    assert kwargs["extra"] == {"service_tier": "auto", "drop_params": True}


class _SyncAdapter:
    """1.90 and later: is_async=False gives a sync iterator of bytes."""

    def translate_completion_output_params_streaming(
        self, completion_stream: Any, model: str, is_async: bool = True
    ) -> Iterator[bytes]:
        assert is_async is False
        return iter([b"event: a\n", f"data: {model}\n\n".encode()])


class _AsyncOnlyAdapter:
    """Before 1.90: every caller gets the asynchronous event stream."""

    def translate_completion_output_params_streaming(
        self, completion_stream: Any, model: str
    ) -> AsyncIterator[bytes]:
        async def stream() -> AsyncIterator[bytes]:
            for piece in (b"event: a\n", f"data: {model}\n\n".encode()):
                yield piece

        return stream()


@pytest.mark.parametrize("adapter", [_SyncAdapter(), _AsyncOnlyAdapter()])
def test_the_event_stream_bytes_on_either_kind_of_release(adapter: Any) -> None:
    assert entry.sse_bytes(adapter, [], "m") == b"event: a\ndata: m\n\n"


@pytest.mark.parametrize(("new", "expected"), [(True, {}), (False, {"max_retries": 0})])
def test_retries_are_turned_off_only_where_the_request_goes_out(
    monkeypatch: pytest.MonkeyPatch, new: bool, expected: dict[str, Any]
) -> None:
    class Logging:
        if new:

            def __init__(self, model: str, raw_request_only: bool = False) -> None: ...

        else:

            def __init__(self, model: str) -> None: ...

    _install(monkeypatch, "litellm.litellm_core_utils.litellm_logging", Logging=Logging)
    assert entry.raw_request_kwargs({"model": "m"}) == {"model": "m", **expected}
    # A caller's own setting wins.
    assert entry.raw_request_kwargs({"max_retries": 3})["max_retries"] == 3


def test_releases_without_is_async_are_asynchronous_only() -> None:
    assert entry.async_only(_AsyncOnlyAdapter()) is True
    assert entry.async_only(_SyncAdapter()) is False


def test_the_responses_api_bridge_is_recognised_by_its_model_prefix() -> None:
    assert entry.routes_to_responses_api({"model": "responses/openai/gpt-4.1-mini"})
    assert not entry.routes_to_responses_api({"model": "openai/gpt-4.1-mini"})
    assert not entry.routes_to_responses_api({})
