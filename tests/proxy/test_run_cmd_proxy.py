"""`toolwire run --adapter http://... --proxy-cmd ...`: the hostile-proxy table of
docs/proxies.md, row by row, with the outcome and exit code each row states."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.proxy.support import REPO, TOY_PROXY_CMD
from toolwire.harness.cli.main import cli
from toolwire.harness.proxy.process import free_port

# A proxy that answers gets 10 s (a loaded machine can be slow); the faults
# that never answer are judged against a 1 s timeout, so they end quickly.
FRONT_ANTHROPIC = "http://127.0.0.1?front=anthropic-messages&back=openai-chat&timeout=10"
FRONT_ANTHROPIC_QUICK = "http://127.0.0.1?front=anthropic-messages&back=openai-chat&timeout=1"
WAITS_FOR_TIMEOUT = ("hang", "stall-stream")
WEATHER = "single-tool/weather-anthropic"
STREAM = "streaming/parallel-anthropic"


CASE_FILES = (
    "single-tool/weather-anthropic.yaml",
    "single-tool/weather-openai.yaml",
    "streaming/parallel-anthropic.yaml",
    "streaming/parallel-openai.yaml",
)


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four cases these tests use and their twins: quicker to load than all."""
    root = tmp_path_factory.mktemp("corpus")
    for name in CASE_FILES:
        (root / name).parent.mkdir(exist_ok=True)
        shutil.copy(REPO / "corpus" / name, root / name)
    return root


_CORPUS: list[Path] = []


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch, small_corpus: Path) -> None:
    monkeypatch.chdir(REPO)  # the toy proxy runs as `python -m tests.proxy.toy_proxy`
    monkeypatch.setattr(f"{__name__}._CORPUS", [small_corpus])


def _run(*args: str) -> Result:
    corpus = ["--corpus", str(_CORPUS[0])]
    return CliRunner().invoke(cli, ["run", *corpus, *args], catch_exceptions=False)


def _run_json(fault: str | None, case_id: str, adapter: str = FRONT_ANTHROPIC) -> Result:
    command = TOY_PROXY_CMD + (f" --fault {fault}" if fault else "")
    return _run(
        "--adapter", adapter, "--proxy-cmd", command, "--select", case_id, "--format", "json"
    )


def _outcomes(result: Result) -> dict[str, tuple[str, str]]:
    document: dict[str, Any] = json.loads(result.output)
    return {v["rule"]: (v["outcome"], v["message"]) for v in document["verdicts"]}


def test_a_correct_proxy_exits_0() -> None:
    result = _run("--adapter", FRONT_ANTHROPIC, "--proxy-cmd", TOY_PROXY_CMD, "--select", STREAM)
    assert result.exit_code == 0, result.output
    assert "PASS: exit 0" in result.output


@pytest.mark.parametrize(
    ("fault", "case_id", "rule", "outcome", "words", "exit_code"),
    [
        ("reset", WEATHER, "convert", "error", "dropped the connection without answering", 3),
        ("hang", WEATHER, "convert", "error", "sent no answer within 1 s", 3),
        ("status-500", WEATHER, "convert", "error", "the proxy answered HTTP 500", 3),
        ("invalid-sse", STREAM, "schema.response", "fail", "is not JSON", 1),
        ("close-mid-stream", STREAM, "convert", "error", "closed the connection midway", 3),
        ("stall-stream", STREAM, "convert", "error", "stopped sending midway", 3),
        ("json-for-stream", STREAM, "schema.response", "fail", "asked for an event stream", 1),
        ("rename-tool", WEATHER, "convert", "error", "the replay upstream did not recognise", 3),
    ],
)
def test_each_hostile_proxy_gets_its_verdict_and_exit_code(
    fault: str, case_id: str, rule: str, outcome: str, words: str, exit_code: int
) -> None:
    adapter = FRONT_ANTHROPIC_QUICK if fault in WAITS_FOR_TIMEOUT else FRONT_ANTHROPIC
    result = _run_json(fault, case_id, adapter)
    assert result.exit_code == exit_code, result.output
    found_outcome, message = _outcomes(result)[rule]
    assert found_outcome == outcome
    assert words in message


def test_a_proxy_that_dies_midway_is_named_with_its_exit_status_and_log() -> None:
    result = _run_json("die", WEATHER)
    assert result.exit_code == 3
    outcome, message = _outcomes(result)["convert"]
    assert outcome == "error"
    assert "(the proxy process exited with status 3; its log ends: " in message
    assert "toy proxy: out of memory)" in message


def test_a_proxy_that_is_down_is_refused_with_exit_3() -> None:
    adapter = f"http://127.0.0.1:{free_port()}?upstream_port={free_port()}&timeout=1"
    result = _run("--adapter", adapter, "--select", WEATHER, "--format", "json")
    assert result.exit_code == 3
    outcome, message = _outcomes(result)["convert"]
    assert outcome == "error"
    assert "refused the connection: nothing listens there" in message


def test_a_proxy_that_fails_to_start_shows_its_log_tail_and_exits_3() -> None:
    result = _run(
        "--adapter",
        FRONT_ANTHROPIC,
        "--proxy-cmd",
        TOY_PROXY_CMD + " --exit-at-start",
        "--select",
        WEATHER,
    )
    assert result.exit_code == 3
    assert "toolwire: error: the proxy exited with status 4 before answering" in result.output
    assert "  | toy proxy: config error: no model list" in result.output
    assert "Traceback" not in result.output


def test_proxy_cmd_with_an_adapter_that_is_not_a_proxy_is_a_usage_error() -> None:
    result = _run("--adapter", "reference", "--proxy-cmd", "true", "--select", WEATHER)
    assert result.exit_code == 2
    assert "--proxy-cmd starts a proxy, but adapter 'reference' is not one" in result.output


def test_a_hand_started_proxy_needs_an_upstream_port_usage_error() -> None:
    result = _run("--adapter", "http://127.0.0.1:8080", "--select", WEATHER)
    assert result.exit_code == 2
    assert "upstream_port" in result.output
