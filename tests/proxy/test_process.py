"""Starting and stopping a proxy for a run (--proxy-cmd)."""

from __future__ import annotations

import os
import socket

import pytest

from tests.proxy.support import PYTHON, REPO, TOY_PROXY_CMD
from toolwire.harness.proxy.process import (
    ProxyCommandError,
    ProxyProcess,
    ProxyStartError,
    command_words,
    free_port,
)
from toolwire.harness.proxy.replay import ReplayUpstream


def test_placeholders_are_replaced_in_each_word() -> None:
    words = command_words(
        "proxy --upstream {upstream_url} --listen {host}:{port} --raw {upstream_port} '{{x}}'",
        "http://127.0.0.1:5000",
        5000,
        6000,
    )
    assert words == [
        "proxy",
        "--upstream",
        "http://127.0.0.1:5000",
        "--listen",
        "127.0.0.1:6000",
        "--raw",
        "5000",
        "{x}",
    ]


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("proxy {upstream}", "unknown placeholder"),
        ("", "--proxy-cmd is empty"),
        ("proxy 'unclosed", "does not split"),
    ],
)
def test_a_bad_command_is_a_usage_error(template: str, message: str) -> None:
    with pytest.raises(ProxyCommandError, match=message) as caught:
        command_words(template, "http://127.0.0.1:1", 1, 2)
    assert caught.value.exit_code == 2


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); read its state.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


def test_the_toy_proxy_starts_answers_and_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    with ReplayUpstream() as replay:
        port = free_port()
        words = command_words(TOY_PROXY_CMD, replay.url, replay.port, port)
        process = ProxyProcess(words, port, ready_timeout=20)
        process.start()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            assert process.exit_status() is None
            assert "toy proxy listening on 127.0.0.1" in process.log_tail()
            pid = process._process.pid if process._process else 0
        finally:
            process.cleanup()
        assert pid and not _alive(pid)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_proxy_that_exits_at_start_shows_its_log_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    words = command_words(TOY_PROXY_CMD + " --exit-at-start", "http://127.0.0.1:1", 1, free_port())
    with pytest.raises(ProxyStartError) as caught:
        ProxyProcess(words, int(words[words.index("--port") + 1]), ready_timeout=20).start()
    text = str(caught.value)
    assert text.startswith("the proxy exited with status 4 before answering")
    assert "  | toy proxy: config error: no model list" in text
    assert caught.value.exit_code == 3


def test_a_proxy_that_never_listens_is_stopped_after_the_ready_timeout() -> None:
    port = free_port()
    script = "import time; print('warming up', flush=True); time.sleep(60)"
    process = ProxyProcess([PYTHON, "-c", script], port, ready_timeout=1.0)
    with pytest.raises(ProxyStartError) as caught:
        process.start()
    text = str(caught.value)
    assert f"did not accept a TCP connection on 127.0.0.1:{port} within 1 s" in text
    assert "  | warming up" in text
    assert process.exit_status() is None and process._process is None  # stopped and forgotten


def test_a_ready_path_must_answer_below_500(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    with ReplayUpstream() as replay:
        port = free_port()
        words = command_words(TOY_PROXY_CMD, replay.url, replay.port, port)
        # The toy proxy answers GET with 501 (no do_GET): never ready by that path.
        process = ProxyProcess(words, port, ready_timeout=1.5, ready_path="/health")
        with pytest.raises(ProxyStartError, match="did not accept GET /health"):
            process.start()


def test_a_missing_program_is_a_usage_error() -> None:
    process = ProxyProcess(["/nonexistent/toolwire-proxy"], free_port(), ready_timeout=1)
    with pytest.raises(ProxyCommandError, match="could not start '/nonexistent/toolwire-proxy'"):
        process.start()
