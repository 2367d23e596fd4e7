"""Misbehaving adapters through the real `toolwire run` (docs/hostile-input.md, rows A14-A22, R1).

What only a whole process shows: the exit status, that the command ends at
all, what reaches stdout, and that no traceback is printed (checked by
``toolwire`` for every run).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.cli import ADAPTERS, toolwire
from toolwire.harness.engine.workers import WorkerSetup, run_in_workers

ONE = "single-tool/weather-openai"
TWO = f"{ONE},parallel/two-cities-openai"  # the adapters below break on the second only


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _verdicts_by_case(document: dict[str, Any]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for verdict in document["verdicts"]:
        found.setdefault(verdict["case"], set()).add(verdict["outcome"])
    return found


@pytest.mark.parametrize("name", ["LeaksThread", "LeaksThreadAtLoad"])
def test_a14_a15_leaked_threads_do_not_keep_the_command_alive(name: str) -> None:
    started = time.monotonic()
    result = toolwire(
        "run", "--adapter", f"{ADAPTERS}:{name}", "--select", ONE, "--format", "json", timeout=90
    )
    assert time.monotonic() - started < 90
    assert result.returncode == 0
    assert _strict_json(result.stdout)["totals"]["pass"] > 0
    assert "toolwire: warning: the adapter left" in result.stderr
    assert "exiting without waiting for them" in result.stderr


def test_a16_sys_exit_is_an_error_not_a_clean_exit() -> None:
    result = toolwire("run", "--adapter", f"{ADAPTERS}:CallsSysExit", "--select", ONE)
    assert result.returncode == 3
    assert "the adapter raised SystemExit: 0" in result.stdout + result.stderr


def test_a17_os_exit_is_stopped_and_reported() -> None:
    result = toolwire(
        "run", "--adapter", f"{ADAPTERS}:CallsOsExit", "--select", ONE, "--format", "json"
    )
    assert result.returncode == 3
    verdict = _strict_json(result.stdout)["verdicts"][0]
    assert verdict["outcome"] == "error"
    assert (
        "AdapterExited: the adapter called os._exit(0); toolwire kept running"
        in (verdict["message"])
    )


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("ExitsFromOwnThread", "exit status 5"),  # os._exit from a thread the guard cannot see
        ("KillsItself", "signal SIGKILL"),
    ],
)
def test_a18_a19_a_process_ending_adapter_is_isolated_by_jobs(name: str, how: str) -> None:
    result = toolwire(
        "run", "--adapter", f"{ADAPTERS}:{name}", "--select", TWO, "--jobs", "2", "--format", "json"
    )
    assert result.returncode == 3
    document = _strict_json(result.stdout)
    assert _verdicts_by_case(document) == {
        ONE: {"pass"},
        "parallel/two-cities-openai": {"error"},
    }
    message = next(v["message"] for v in document["verdicts"] if v["outcome"] == "error")
    assert f"the worker process running this case ended ({how})" in message


def test_a20_an_adapter_holding_the_gil_is_killed_after_the_hard_limit() -> None:
    # The per-call timeout cannot interrupt one C call that never releases the
    # GIL; only the worker's controller can, by killing the worker.
    setup = WorkerSetup(f"{ADAPTERS}:HoldsTheGil", "holds-the-gil", _bundled_root())
    started = time.monotonic()
    results = dict(run_in_workers(setup, [ONE, "parallel/two-cities-openai"], 2, hard_limit=5))
    assert time.monotonic() - started < 60
    assert {v.outcome for v in results[ONE]} == {"pass"}
    [stuck] = results["parallel/two-cities-openai"]
    assert stuck.outcome == "error"
    assert "no answer from the worker process within 5 s, so it was stopped" in stuck.message


def _bundled_root() -> str:
    from toolwire.harness.corpus.loader import bundled_corpus_root

    return str(bundled_corpus_root())


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a21_what_an_adapter_prints_goes_to_stderr_not_into_the_json(jobs: str) -> None:
    result = toolwire(
        "run",
        "--adapter",
        f"{ADAPTERS}:Prints",
        "--select",
        TWO,
        "--jobs",
        jobs,
        "--format",
        "json",
    )
    assert result.returncode == 0
    assert _strict_json(result.stdout)["totals"]["pass"] > 0
    assert "debug: converting request" in result.stderr
    assert "raw write to fd 1" in result.stderr


def test_a22_a_hanging_adapter_ends_the_command_within_its_timeout() -> None:
    started = time.monotonic()
    result = toolwire(
        "run", "--adapter", f"{ADAPTERS}:Hangs", "--select", ONE, "--timeout", "0.5", timeout=60
    )
    assert result.returncode == 3
    assert "the adapter timed out: no answer within 0.5 s" in result.stdout + result.stderr
    assert time.monotonic() - started < 30


def test_r1_the_results_file_stays_strict_json_whatever_the_adapter_returned(
    tmp_path: Path,
) -> None:
    result = toolwire(
        "run",
        "--adapter",
        f"{ADAPTERS}:ReturnsNaNInside",
        "--select",
        TWO,
        "--report-dir",
        str(tmp_path),
    )
    assert result.returncode == 3
    document = _strict_json((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert document["totals"]["error"] == 2
    assert all("nan, which JSON cannot carry" in v["message"] for v in document["verdicts"])
