"""The action's main step (.github/toolwire-action/run.sh -> step.py) run for
real in a fake GitHub environment: output and job-summary files, the action's
path, the job and its matrix, a workspace as the working folder. The output
file is checked line for line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support.real_transcripts import PROJECT_ROOT

SCRIPT = PROJECT_ROOT / ".github" / "toolwire-action" / "run.sh"
SELECT = "feature:parallel"  # a few dozen cases: seconds, not minutes
FAILING = "tests.selftest.broken_requests:ParallelCallsDisabled"  # drops tool_choice


class Step:
    """One run of the step; ``outputs`` is the $GITHUB_OUTPUT file's text."""

    def __init__(self, tmp_path: Path, inputs: dict[str, str], env: dict[str, str]) -> None:
        self.workspace = tmp_path / "workspace"
        self.workspace.mkdir(exist_ok=True)
        self.output_file = tmp_path / "github_output"
        self.summary_file = tmp_path / "step_summary.md"
        (tmp_path / "runner_temp").mkdir(exist_ok=True)
        inherited = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("GITHUB_", "INPUT_", "TOOLWIRE_", "RUNNER_"))
        }
        full_env = {
            **inherited,
            "PYTHONPATH": str(PROJECT_ROOT),  # where the failing adapter's module is
            "GITHUB_ACTIONS": "true",
            "GITHUB_OUTPUT": str(self.output_file),
            "GITHUB_STEP_SUMMARY": str(self.summary_file),
            "GITHUB_ACTION_PATH": str(PROJECT_ROOT),
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_JOB": "conformance",
            "GITHUB_RUN_ATTEMPT": "1",
            "RUNNER_TEMP": str(tmp_path / "runner_temp"),
            # The test's environment has toolwire (editable): no pip install here.
            "INPUT_TOOLWIRE": "installed",
            "INPUT_PYTHON": sys.executable,
            "INPUT_SELECT": SELECT,
            "INPUT_ADAPTER": "reference",  # a test of its absence sets it empty
            **{f"INPUT_{key.upper().replace('-', '_')}": value for key, value in inputs.items()},
            **env,
        }
        self.done = subprocess.run(
            ["bash", str(SCRIPT)],
            cwd=self.workspace,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert self.done.returncode == 0, self.done.stderr  # the step itself never fails
        self.outputs = self.output_file.read_text(encoding="utf-8")
        self.summary = self.summary_file.read_text(encoding="utf-8")

    @property
    def reports(self) -> Path:
        return self.workspace / "toolwire-reports"

    def totals(self) -> dict[str, int]:
        document = json.loads((self.reports / "results.json").read_text(encoding="utf-8"))
        return {key: int(value) for key, value in document["totals"].items()}


def _expected(code: int, error: str, totals: dict[str, int] | None, name: str) -> str:
    if totals is None:
        counts = ["passed=", "failed=", "warned=", "results=", "report="]
    else:
        counts = [
            f"passed={totals['pass']}",
            f"failed={totals['fail'] + totals['error'] + totals['stale']}",
            f"warned={totals['warn']}",
            "results=toolwire-reports/results.json",
            "report=toolwire-reports/report.html",
        ]
    lines = [f"exit-code={code}", f"error={error}", *counts, f"artifact-name={name}"]
    return "\n".join(lines) + "\n"


def test_a_passing_reference_run_sets_every_output_and_report(tmp_path: Path) -> None:
    step = Step(tmp_path, {}, {})
    totals = step.totals()
    assert totals["pass"] > 0 and totals["fail"] == totals["error"] == totals["stale"] == 0
    assert step.outputs == _expected(0, "", totals, "toolwire-conformance-reference")
    for name in ("results.json", "report.html", "junit.xml", "summary.md", "badge.json", "run.txt"):
        assert (step.reports / name).is_file(), name
    assert json.loads((step.reports / "badge.json").read_text())["schemaVersion"] == 1
    assert "PASS" in step.summary
    assert step.summary.endswith(
        "Reports: artifact `toolwire-conformance-reference` "
        "(report.html, junit.xml, results.json).\n"
    )
    assert "::error" not in step.done.stdout


def test_a_failing_adapter_reports_its_failures_and_exit_code_1(tmp_path: Path) -> None:
    step = Step(tmp_path, {"adapter": FAILING}, {})
    totals = step.totals()
    assert totals["fail"] > 0
    name = step.outputs.rsplit("artifact-name=", 1)[1].strip()
    assert step.outputs == _expected(1, "", totals, name)
    assert "fidelity.tool_choice" in step.summary and "FAIL" in step.summary


def test_an_adapter_broken_on_every_case_exits_3_with_toolwires_reason(tmp_path: Path) -> None:
    step = Step(tmp_path, {"adapter": "tests.engine.test_adapters:Raises"}, {})
    document = json.loads((step.reports / "results.json").read_text(encoding="utf-8"))
    reason = document["broken"]
    assert reason.startswith("the adapter failed on every case")
    assert "RuntimeError: upstream converter exploded" in reason
    name = step.outputs.rsplit("artifact-name=", 1)[1].strip()
    assert step.outputs == _expected(3, reason, step.totals(), name)
    assert f"**toolwire:** {reason}" in step.summary


def test_an_adapter_that_breaks_on_some_cases_exits_3_with_the_count(tmp_path: Path) -> None:
    step = Step(tmp_path, {"adapter": "tests.engine.test_adapters:RaisesOnlyOnParallel"}, {})
    totals = step.totals()
    assert totals["error"] > 0 and totals["pass"] > 0
    error = f"the adapter broke on {totals['error']} verdicts (outcome error): see the summary"
    name = step.outputs.rsplit("artifact-name=", 1)[1].strip()
    assert step.outputs == _expected(3, error, totals, name)


def _cli_error(adapter: str) -> str:
    """toolwire's own one-line message for this adapter spec, from the CLI."""
    done = subprocess.run(
        [Path(sys.executable).parent / "toolwire", "run", "--adapter", adapter],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    [line] = [line for line in done.stderr.splitlines() if line.startswith("toolwire: error:")]
    return line.removeprefix("toolwire: error:").strip()


def test_a_bad_adapter_spec_is_a_usage_error_with_every_output(tmp_path: Path) -> None:
    step = Step(tmp_path, {"adapter": "does.not:exist"}, {})
    message = _cli_error("does.not:exist")
    name = step.outputs.rsplit("artifact-name=", 1)[1].strip()
    assert name.startswith("toolwire-conformance-does.not_exist-")
    assert step.outputs == _expected(2, message, None, name)
    assert step.summary.startswith("### toolwire did not run\n")
    assert "a usage error" in step.summary and message in step.summary
    assert f"::error title=toolwire::{message}" in step.done.stdout
    assert not (step.reports / "results.json").exists()
    assert (step.reports / "run.txt").is_file()


def test_results_left_by_an_earlier_run_are_not_reported_as_this_run(tmp_path: Path) -> None:
    old = tmp_path / "workspace" / "toolwire-reports"
    old.mkdir(parents=True)
    (old / "results.json").write_text(json.dumps({"totals": {"pass": 7}}))
    os.utime(old / "results.json", (0, 0))
    step = Step(tmp_path, {"adapter": "does.not:exist"}, {})
    assert "exit-code=2\n" in step.outputs and "passed=\n" in step.outputs


def test_two_jobs_of_a_matrix_upload_under_different_names(tmp_path: Path) -> None:
    names = []
    for index, python in enumerate(("3.11", "3.13")):
        job = tmp_path / f"job{index}"
        job.mkdir()
        step = Step(
            job,
            {"select": "parallel/ten-calls-*"},
            {
                "TOOLWIRE_MATRIX": json.dumps({"python": python}, indent=2),
                "TOOLWIRE_JOB_INDEX": str(index),
                "TOOLWIRE_JOB_TOTAL": "2",
            },
        )
        name = f"toolwire-conformance-{python}-reference"
        assert step.outputs == _expected(0, "", step.totals(), name)
        names.append(name)
    assert names[0] != names[1]


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (
            {"artifact-name": "reports/linux"},
            "artifact-name 'reports/linux' holds '/', which upload-artifact refuses: "
            "use letters, digits, '.', '-' and '_'",
        ),
        (
            {"python-version": "3.12"},
            "set python (an interpreter with your converter) or python-version "
            "(a new one from actions/setup-python), not both",
        ),
    ],
)
def test_a_bad_input_of_the_action_is_a_usage_error(
    tmp_path: Path, inputs: dict[str, str], message: str
) -> None:
    step = Step(tmp_path, inputs, {})
    name = "" if "artifact-name" in inputs else "toolwire-conformance-reference"
    assert step.outputs == _expected(2, message, None, name)
    assert message in step.summary


def test_toolwire_installed_in_a_python_without_it_says_so(tmp_path: Path) -> None:
    bare = tmp_path / "bare-venv"
    venv.create(bare, with_pip=False)
    python = bare / ("Scripts" if os.name == "nt" else "bin") / "python"
    step = Step(tmp_path, {"python": str(python)}, {})
    message = (
        f"the toolwire command is not installed for {python}: install toolwire in an "
        "earlier step, or leave the toolwire input empty"
    )
    assert step.outputs == _expected(2, message, None, "toolwire-conformance-reference")


def test_no_python_at_all_still_writes_every_output(tmp_path: Path) -> None:
    step = Step(tmp_path, {"python": str(tmp_path / "no-such-python")}, {})
    lines = step.outputs.splitlines()
    assert [line.split("=", 1)[0] for line in lines] == [
        "exit-code",
        "error",
        "passed",
        "failed",
        "warned",
        "results",
        "report",
        "artifact-name",
    ]
    assert lines[0] == "exit-code=2" and "no Python found" in lines[1]
    assert step.summary.startswith("### toolwire did not run")


def test_a_requirement_pip_cannot_install_is_a_usage_error(tmp_path: Path) -> None:
    empty = tmp_path / "not-a-project"
    empty.mkdir()
    step = Step(tmp_path, {"toolwire": str(empty)}, {})
    lines = step.outputs.splitlines()
    assert lines[0] == "exit-code=2"
    assert lines[1].startswith(f"error=pip could not install toolwire from {empty}: ")
    assert "not installable" in lines[1]
    assert lines[2:] == [
        "passed=",
        "failed=",
        "warned=",
        "results=",
        "report=",
        "artifact-name=toolwire-conformance-reference",
    ]


def test_a_step_that_breaks_itself_still_writes_every_output(tmp_path: Path) -> None:
    blocked = tmp_path / "workspace" / "toolwire-reports" / "run.txt"
    blocked.mkdir(parents=True)  # the log cannot be written: a folder is in its place
    step = Step(tmp_path, {"adapter": "does.not:exist"}, {})
    lines = step.outputs.splitlines()
    assert lines[0] == "exit-code=3"
    assert lines[1].startswith("error=the action's step broke: IsADirectoryError(")
    assert lines[2:7] == ["passed=", "failed=", "warned=", "results=", "report="]
    assert re.fullmatch(r"artifact-name=toolwire-conformance-does\.not_exist-[0-9a-f]{8}", lines[7])
    assert "Nothing was judged: exit code 3, without results." in step.summary
