"""The cmd: adapter: handshake, conversions, errors as messages, timeouts, restarts."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from toolwire.harness.adapters.base import LoadedAdapter, UnsupportedConversion
from toolwire.harness.adapters.cmd import AdapterProcessError, AdapterReportedError, CmdAdapter
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.case import Case
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.errors import AdapterLoadError, ToolwireError

FAKE = Path(__file__).with_name("fake_adapter.py")
REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def spec(mode: str, *extra: str) -> str:
    return f"cmd:{sys.executable} {FAKE} {mode} {' '.join(extra)}".rstrip()


@contextmanager
def loaded(mode: str, *extra: str) -> Iterator[LoadedAdapter]:
    adapter = load_adapter(spec(mode, *extra))
    try:
        yield adapter
    finally:
        assert isinstance(adapter.implementation, CmdAdapter)
        adapter.implementation.close()


def test_the_handshake_declares_name_version_and_directions() -> None:
    with loaded("echo") as adapter:
        assert adapter.name == "fake-echo"
        assert adapter.version == "1.0"
        assert {str(d) for d in adapter.directions} == {
            "request:openai-chat->openai-chat",
            "response:openai-chat->openai-chat",
            "stream:openai-chat->openai-chat",
        }
        assert adapter.accepts_request


def test_conversions_come_back_and_the_request_goes_along_when_asked() -> None:
    with loaded("echo") as adapter:
        assert adapter.convert(REQUEST, "request", "openai-chat", "openai-chat") == REQUEST
        answered = adapter.convert({"id": "x"}, "response", "openai-chat", "openai-chat", REQUEST)
        assert answered == {"id": "x", "request_seen": True}
        events = [{"event": None, "data": {"a": 1}}, {"event": None, "data": "[DONE]"}]
        assert adapter.convert(events, "stream", "openai-chat", "openai-chat") == events


def test_id_mapping_is_asked_only_of_adapters_that_offer_it() -> None:
    with loaded("echo") as adapter:
        direction = next(iter(adapter.directions))
        assert adapter.id_mapping(REQUEST, direction) == {}


def test_an_error_message_is_raised_and_the_process_stays() -> None:
    with loaded("error") as adapter:
        implementation = adapter.implementation
        assert isinstance(implementation, CmdAdapter)
        for _ in range(4):  # errors are answers: never counted as failures
            with pytest.raises(AdapterReportedError, match="Nope: cannot do that"):
                adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
        assert implementation._channel is not None and implementation._channel.alive()


def test_an_unsupported_answer_declines_the_payload_as_python_adapters_do() -> None:
    with loaded("decline") as adapter:
        with pytest.raises(UnsupportedConversion, match="the name is too long"):
            adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
        found = run_case(case_with_request(), adapter, RunOptions())
    assert [(v.rule_code, v.outcome) for v in found] == [("unsupported", "unsupported")]
    assert "the name is too long" in found[0].message


def case_with_request() -> Case:
    from tests.proxy.support import case

    return case("single-tool/weather-openai")


def test_a_line_that_is_not_json_is_a_protocol_error_then_a_restart() -> None:
    with (
        loaded("garbage") as adapter,
        pytest.raises(AdapterProcessError, match="line 2 from the adapter is not JSON"),
    ):
        adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")


def test_a_crash_is_explained_with_stderr_and_the_process_restarts(tmp_path: Path) -> None:
    with loaded("crash-once", str(tmp_path / "crashed")) as adapter:
        with pytest.raises(AdapterProcessError) as caught:
            adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
        text = str(caught.value)
        assert "exited with status 7" in text
        assert "fatal: converter exploded" in text
        assert "it will be restarted" in text
        assert adapter.convert(REQUEST, "request", "openai-chat", "openai-chat") == REQUEST


def test_three_crashes_in_a_row_mark_the_adapter_broken() -> None:
    with loaded("crash") as adapter:
        messages = []
        for _ in range(4):
            with pytest.raises(AdapterProcessError) as caught:
                adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
            messages.append(str(caught.value))
    assert "will be restarted" in messages[0]
    assert "failed 3 times in a row and is not restarted again" in messages[2]
    assert messages[3] == messages[2]  # broken: answered at once, no new process


def test_a_hang_is_stopped_by_the_call_timeout() -> None:
    adapter = CmdAdapter.launch(spec("hang").removeprefix("cmd:"), call_timeout=0.5)
    try:
        started = time.monotonic()
        with pytest.raises(AdapterProcessError, match=r"no answer within 0\.5 s"):
            adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
        assert time.monotonic() - started < 3
    finally:
        adapter.close()


def test_an_answer_to_another_id_is_a_protocol_error() -> None:
    with (
        loaded("wrong-id") as adapter,
        pytest.raises(AdapterProcessError, match="answers id 101, toolwire asked id 1"),
    ):
        adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("no-handshake", "first message has type 'result'"),
        ("old-protocol", "speaks protocol 0; toolwire speaks 1"),
        ("bad-direction", "unknown dialect 'mistral-chat'"),
    ],
)
def test_a_bad_start_is_a_load_error(mode: str, message: str) -> None:
    with pytest.raises(AdapterLoadError, match=message) as caught:
        load_adapter(spec(mode))
    assert "\n" not in str(caught.value)


def test_a_silent_adapter_times_out_at_the_handshake() -> None:
    with pytest.raises(AdapterLoadError, match=r"wrote no handshake within 0\.5 s"):
        CmdAdapter.launch(spec("silent").removeprefix("cmd:"), handshake_timeout=0.5)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("cmd:", "names no command"),
        ("cmd:   ", "names no command"),
        ("cmd:/nonexistent/converter --x", "cannot start '/nonexistent/converter'"),
        ("cmd:node 'unclosed", "No closing quotation"),
    ],
)
def test_a_bad_command_is_a_load_error(command: str, message: str) -> None:
    with pytest.raises(AdapterLoadError, match=message):
        load_adapter(command)


def test_the_call_timeout_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLWIRE_CMD_TIMEOUT", "2.5")
    assert CmdAdapter("x").call_timeout == 2.5
    monkeypatch.setenv("TOOLWIRE_CMD_TIMEOUT", "soon")
    with pytest.raises(ToolwireError, match="TOOLWIRE_CMD_TIMEOUT='soon'"):
        CmdAdapter("x")


def test_validation_mode_names_the_json_path_of_an_invalid_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOLWIRE_CMD_VALIDATE", "1")
    with loaded("invalid-result") as adapter, pytest.raises(ToolwireError) as caught:
        adapter.convert(REQUEST, "request", "openai-chat", "openai-chat")
    assert "message 2 from adapter (result) is invalid: at $.payload: 42 is not valid" in str(
        caught.value
    )


def test_without_validation_the_same_answer_passes_through() -> None:
    with loaded("invalid-result") as adapter:
        assert adapter.convert(REQUEST, "request", "openai-chat", "openai-chat") == 42


def test_close_ends_the_process() -> None:
    adapter = load_adapter(spec("echo"))
    implementation = adapter.implementation
    assert isinstance(implementation, CmdAdapter)
    channel = implementation._channel
    assert channel is not None and channel.alive()
    implementation.close()
    assert not channel.alive()
