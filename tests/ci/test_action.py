"""The composite GitHub Action: its declaration, and its main step run for real
with GitHub's output and job-summary files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.support.real_transcripts import PROJECT_ROOT

ACTION = PROJECT_ROOT / "action.yml"
SCRIPT = PROJECT_ROOT / ".github" / "toolwire-action" / "run.sh"


def _run_step(
    tmp_path: Path, adapter: str, extra_env: dict[str, str] | None = None
) -> dict[str, str]:
    output, summary = tmp_path / "output.txt", tmp_path / "summary.md"
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(PROJECT_ROOT),
        "INPUT_ADAPTER": adapter,
        "INPUT_REPORT_DIR": str(tmp_path / "reports"),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        **(extra_env or {}),
    }
    done = subprocess.run(
        ["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr  # the step itself never fails
    return dict(line.split("=", 1) for line in output.read_text().splitlines())


def test_the_action_declares_its_inputs_and_outputs() -> None:
    action = yaml.safe_load(ACTION.read_text())
    assert set(action["inputs"]) >= {"adapter", "corpus", "baseline"}
    assert set(action["outputs"]) == {"passed", "failed", "report"}
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    assert any(step.get("uses", "").startswith("actions/upload-artifact") for step in steps)
    assert steps[-1]["if"] == "steps.run.outputs.exit-code != '0'"


def test_a_passing_adapter_sets_outputs_summary_and_every_report(tmp_path: Path) -> None:
    outputs = _run_step(tmp_path, "reference")
    assert outputs["exit-code"] == "0"
    assert int(outputs["passed"]) > 100 and outputs["failed"] == "0"
    reports = tmp_path / "reports"
    assert Path(outputs["report"]) == reports / "report.html"
    for name in ("results.json", "report.html", "junit.xml", "summary.md", "badge.json"):
        assert (reports / name).is_file(), name
    assert json.loads((reports / "badge.json").read_text())["schemaVersion"] == 1
    assert (tmp_path / "summary.md").read_text().strip()


def test_a_failing_adapter_fails_the_job_through_the_exit_code_output(tmp_path: Path) -> None:
    outputs = _run_step(tmp_path, "tests.engine.test_adapters:ReturnsGarbage")
    assert outputs["exit-code"] == "1"
    assert int(outputs["failed"]) > 0
    assert "schema" in (tmp_path / "summary.md").read_text()


def test_a_run_that_cannot_start_says_so_in_the_summary(tmp_path: Path) -> None:
    outputs = _run_step(tmp_path, "does.not:exist")
    assert outputs["exit-code"] == "2"
    summary = (tmp_path / "summary.md").read_text()
    assert "toolwire did not run" in summary and "cannot import module" in summary


def test_the_repository_workflow_runs_the_action_on_the_reference_adapter() -> None:
    workflow = yaml.safe_load(
        (PROJECT_ROOT / ".github" / "workflows" / "conformance.yml").read_text()
    )
    steps = workflow["jobs"]["reference"]["steps"]
    assert any(
        step.get("uses") == "./" and step["with"]["adapter"] == "reference" for step in steps
    )
    assert any(step.get("run") == "bash .ci/run" for step in workflow["jobs"]["tests"]["steps"])
