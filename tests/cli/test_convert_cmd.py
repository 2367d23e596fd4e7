"""`toolwire convert CASE-ID`: the calls `run` makes for one case, and what came back.

The adapters that raise live in a package written to a temporary folder and
put on the import path (PYTHONPATH for the real command), so the file and
line toolwire names can be checked against the file itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.adapters.reference import DIRECTIONS, ReferenceAdapter
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus

WEATHER = "single-tool/weather-anthropic"
WEATHER_OPENAI = "single-tool/weather-openai"
STREAM = "streaming/parallel-anthropic"
FAKE_CMD = f"cmd:{sys.executable} {PROJECT_ROOT / 'tests/cmd_adapter/fake_adapter.py'}"
# A credential the adapter echoes: redact() knows it from the environment.
SECRET = "twsecret-9f8e7d6c5b4a3928"

CONVERTER = '''\
"""An adapter whose conversion raises where the tests say."""

import json
import os

from mypkg import helpers


class Raising:
    name = "raising"
    version = "1"
    directions = [("request", "anthropic-messages", "openai-chat")]

    def convert(self, payload, kind, source, target):
        return to_openai(payload)


def to_openai(payload):
    tools = {}
    return tools["x"]  # RAISES-KEYERROR


class InStdlib(Raising):
    def convert(self, payload, kind, source, target):
        return json.loads("{not json")  # RAISES-IN-STDLIB


class InHelper(Raising):
    def convert(self, payload, kind, source, target):
        return helpers.convert_messages(payload)


class EchoesKey(Raising):
    def convert(self, payload, kind, source, target):
        raise ValueError("upstream refused key " + os.environ["TW_TEST_API_KEY"])
'''

HELPERS = """\
def convert_messages(payload):
    raise NotImplementedError("images")  # RAISES-IN-HELPER
"""


@pytest.fixture(scope="module")
def adapter_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("adapters")
    package = root / "mypkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "conv.py").write_text(CONVERTER)
    (package / "helpers.py").write_text(HELPERS)
    return root


@pytest.fixture
def on_path(adapter_folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(adapter_folder))
    monkeypatch.setenv("TW_TEST_API_KEY", SECRET)
    yield adapter_folder
    for name in [n for n in sys.modules if n == "mypkg" or n.startswith("mypkg.")]:
        del sys.modules[name]


def _line(folder: Path, file: str, marker: str) -> int:
    lines = (folder / "mypkg" / file).read_text().splitlines()
    [number] = [n for n, text in enumerate(lines, 1) if marker in text]
    return number


def _convert(*args: str) -> Result:
    return CliRunner().invoke(cli, ["convert", *args], catch_exceptions=False)


def _json(result: Result) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _one_line_error(result: Result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("toolwire: error:")]
    assert len(lines) == 1, result.output
    return lines[0]


# --- what toolwire passes and what comes back -----------------------------------


def test_each_call_shows_the_exact_payload_and_what_the_adapter_returned() -> None:
    result = _convert(WEATHER, "--json")
    assert result.exit_code == 0, result.output
    calls = _json(result)["calls"]
    case = load_corpus(bundled_corpus_root())[WEATHER]
    reference = ReferenceAdapter()
    where = "request anthropic-messages->openai-chat, interaction 1 request"
    first = next(c for c in calls if c["where"] == where)
    assert first["payload"] == case.interactions[0].request_json()
    assert (first["kind"], first["source"], first["target"]) == (
        "request",
        "anthropic-messages",
        "openai-chat",
    )
    assert first["outcome"] == "returned"
    assert first["output"] == reference.convert(
        first["payload"], "request", "anthropic-messages", "openai-chat"
    )
    # a response is passed with the request it answers (the reference takes request=)
    response = next(c for c in calls if c["kind"] == "response" and c["target"] == "openai-chat")
    assert response["payload"] == case.interactions[0].response_json()
    assert response["request"] == case.interactions[0].request_json()
    # the round trip the engine makes is shown too
    assert any(c["where"].endswith(", and back") for c in calls)


def test_the_calls_are_the_ones_run_makes() -> None:
    """Every direction the reference declares from the case's dialect, per interaction."""
    calls = _json(_convert(WEATHER, "--json"))["calls"]
    forward = {
        (c["kind"], c["target"], c["interaction"]) for c in calls if "and back" not in c["where"]
    }
    targets = {target for _kind, source, target in DIRECTIONS if source == "anthropic-messages"}
    assert forward == {
        (kind, target, number)
        for kind in ("request", "response")
        for target in targets
        for number in (1, 2)
    }


def test_a_stream_is_passed_as_its_event_list() -> None:
    result = _convert(STREAM, "--json", "--kind", "stream", "--target", "openai-chat")
    calls = _json(result)["calls"]
    assert calls and {c["kind"] for c in calls} == {"stream"}
    payload = calls[0]["payload"]
    assert isinstance(payload, list) and payload[0]["event"] == "message_start"


def test_the_filters_narrow_what_is_shown() -> None:
    result = _convert(
        WEATHER, "--json", "--kind", "request", "--target", "openai-chat", "--interaction", "2"
    )
    wheres = [c["where"] for c in _json(result)["calls"]]
    assert wheres == [
        "request anthropic-messages->openai-chat, interaction 2 request",
        "request anthropic-messages->openai-chat, interaction 2 request, and back",
    ]


def test_the_text_form_names_the_call_and_shows_both_sides() -> None:
    result = _convert(WEATHER, "--kind", "request", "--target", "openai-chat", "--interaction", "1")
    assert result.exit_code == 0
    assert (
        'toolwire called convert(PAYLOAD, kind="request", source="anthropic-messages", '
        'target="openai-chat")' in result.output
    )
    assert "PAYLOAD:\n{" in result.output
    assert "the adapter returned:\n{" in result.output
    assert "verdicts: " in result.output


# --- usage errors ---------------------------------------------------------------


def test_an_unknown_case_suggests_close_ids() -> None:
    result = _convert("single-tool/weather-anthropc")
    assert result.exit_code == 2
    line = _one_line_error(result)
    assert "no case 'single-tool/weather-anthropc'" in line
    assert "did you mean: single-tool/weather-anthropic" in line


def test_an_unknown_adapter_is_a_usage_error() -> None:
    result = _convert(WEATHER, "--adapter", "refrence")
    assert result.exit_code == 2
    assert "did you mean 'reference'?" in _one_line_error(result)


def test_a_filter_that_matches_nothing_says_what_was_called() -> None:
    result = _convert(WEATHER, "--kind", "stream")
    assert result.exit_code == 2
    line = _one_line_error(result)
    assert "no call of the case matches" in line
    assert "kinds request, response" in line


def test_a_corpus_file_instead_of_a_folder_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "case.yaml"
    file.write_text("id: x\n")
    result = _convert(WEATHER, "--corpus", str(file))
    assert result.exit_code == 2
    assert "--corpus" in _one_line_error(result)


# --- where the adapter raised -----------------------------------------------------


def test_the_innermost_frame_of_the_adapter_is_named(on_path: Path) -> None:
    result = _convert(WEATHER, "--adapter", "mypkg.conv:Raising", "--interaction", "1")
    assert result.exit_code == 3, result.output
    line = _line(on_path, "conv.py", "RAISES-KEYERROR")
    assert f"the adapter raised: KeyError: 'x' (at mypkg/conv.py:{line} in to_openai)" in (
        result.output
    )


def test_a_raise_inside_the_stdlib_names_the_adapter_line_that_called_it(on_path: Path) -> None:
    result = _convert(WEATHER, "--adapter", "mypkg.conv:InStdlib", "--json", "--interaction", "1")
    [call] = [c for c in _json(result)["calls"] if c["interaction"] == 1]
    line = _line(on_path, "conv.py", "RAISES-IN-STDLIB")
    assert call["outcome"] == "raised"
    assert call["error"].startswith("JSONDecodeError: ")
    assert call["error"].endswith(f"(at mypkg/conv.py:{line} in convert)")


def test_a_helper_module_of_the_adapters_package_is_its_code(on_path: Path) -> None:
    result = _convert(WEATHER, "--adapter", "mypkg.conv:InHelper", "--json", "--interaction", "1")
    [call] = _json(result)["calls"]
    line = _line(on_path, "helpers.py", "RAISES-IN-HELPER")
    assert call["error"] == (
        f"NotImplementedError: images (at mypkg/helpers.py:{line} in convert_messages)"
    )


def test_run_names_the_same_place(on_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["run", "--adapter", "mypkg.conv:Raising", "--select", WEATHER, "--format", "json"],
        catch_exceptions=False,
    )
    assert result.exit_code == 3
    [error] = [v for v in json.loads(result.stdout)["verdicts"] if v["outcome"] == "error"]
    line = _line(on_path, "conv.py", "RAISES-KEYERROR")
    assert error["message"] == (
        f"the adapter raised KeyError: 'x' (at mypkg/conv.py:{line} in to_openai)"
    )


def test_what_the_adapter_echoes_from_its_environment_is_redacted(on_path: Path) -> None:
    for form in (["--json"], []):
        result = _convert(WEATHER, "--adapter", "mypkg.conv:EchoesKey", *form)
        assert result.exit_code == 3
        assert "upstream refused key" in result.output
        assert SECRET not in result.output
        assert SECRET[:12] not in result.output


def test_the_real_command_with_the_adapter_on_pythonpath(adapter_folder: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(adapter_folder), str(PROJECT_ROOT)])}
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolwire.harness",
            "convert",
            WEATHER,
            "--adapter",
            "mypkg.conv:Raising",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=adapter_folder,
    )
    assert completed.returncode == 3, completed.stderr
    assert "Traceback" not in completed.stdout + completed.stderr
    line = _line(adapter_folder, "conv.py", "RAISES-KEYERROR")
    assert f"KeyError: 'x' (at mypkg/conv.py:{line} in to_openai)" in completed.stdout


# --- adapters in other processes --------------------------------------------------


def test_a_cmd_adapter_error_says_what_the_process_answered() -> None:
    result = _convert(WEATHER_OPENAI, "--adapter", f"{FAKE_CMD} error", "--interaction", "1")
    assert result.exit_code == 3
    assert "the adapter process answered with an error: Nope: cannot do that" in result.output
    assert "a cmd: adapter runs in its own process: toolwire has no Python frame" in result.output
    assert "(at " not in result.output


def test_a_cmd_adapter_that_dies_shows_its_exit_and_stderr() -> None:
    result = _convert(WEATHER_OPENAI, "--adapter", f"{FAKE_CMD} crash", "--kind", "request")
    assert result.exit_code == 3
    assert (
        "the adapter process failed: the adapter process exited with status 7; "
        "its stderr ends: fatal: converter exploded"
    ) in result.output


def test_a_cmd_adapter_that_returns_shows_its_output() -> None:
    result = _convert(
        WEATHER_OPENAI, "--adapter", f"{FAKE_CMD} echo", "--json", "--kind", "request"
    )
    assert result.exit_code == 0, result.output
    calls = _json(result)["calls"]
    assert calls and all(c["outcome"] == "returned" for c in calls)
    assert calls[0]["output"] == calls[0]["payload"]


def test_an_http_proxy_shows_what_it_forwarded_and_returned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(PROJECT_ROOT)  # the toy proxy runs as `python -m tests.proxy.toy_proxy`
    command = (
        f"{sys.executable} -m tests.proxy.toy_proxy --upstream {{upstream_url}} "
        "--port {port} --fault drop-tool"
    )
    spec = "http://127.0.0.1?front=anthropic-messages&back=openai-chat&timeout=5"
    result = _convert(WEATHER, "--adapter", spec, "--proxy-cmd", command, "--interaction", "1")
    assert result.exit_code == 0, result.output
    assert "toolwire sent the proxy (anthropic-messages -> its upstream in openai-chat):" in (
        result.output
    )
    assert "the proxy forwarded upstream:" in result.output
    assert "the replay upstream did not recognise it (" in result.output
    assert "it answered with recorded interaction 1, where the case is." in result.output
    assert "the proxy returned HTTP 200 (application/json):" in result.output
