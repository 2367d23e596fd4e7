"""The action gates as `toolwire run` does: no adapter named is a usage error
listing the installed ones (unless the project's [tool.toolwire] names one),
fail-on: warn fails the job on a SHOULD verdict, and the profile input judges
under a stricter profile. Run for real in the fake GitHub environment."""

from __future__ import annotations

from pathlib import Path

from tests.ci.test_action import Step, _expected
from toolwire.harness.adapters.loader import available_adapter_names

# A SHOULD toward a target that merges consecutive user messages (the profile
# anthropic-merging), a MUST under the default anthropic and under anthropic-strict.
SPLIT = "tests.selftest.broken_requests:ResultsSplit"
SPLIT_CASE = "parallel/two-cities-openai"
MERGING = "anthropic-messages=anthropic-merging"


def test_without_an_adapter_the_step_is_a_usage_error_listing_the_installed_ones(
    tmp_path: Path,
) -> None:
    step = Step(tmp_path, {"adapter": ""}, {})
    assert "exit-code=2\n" in step.outputs and "passed=\n" in step.outputs
    error = step.outputs.split("error=", 1)[1].split("\n", 1)[0]
    assert error.startswith("no adapter to judge: name one with --adapter SPEC")
    assert "installed adapters: " + ", ".join(available_adapter_names()) in error
    assert "artifact-name=toolwire-conformance-configured\n" in step.outputs
    assert "### toolwire did not run" in step.summary


def test_the_projects_pyproject_names_the_adapter(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "pyproject.toml").write_text('[tool.toolwire]\nadapter = "reference"\n')
    step = Step(tmp_path, {"adapter": ""}, {})
    totals = step.totals()
    assert totals["pass"] > 0
    assert step.outputs == _expected(0, "", totals, "toolwire-conformance-configured")


def test_fail_on_warn_fails_the_job_on_a_should_verdict(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    lenient = {"adapter": SPLIT, "select": SPLIT_CASE, "profile": MERGING}
    default = Step(tmp_path / "a", lenient, {})
    totals = default.totals()
    assert totals["warn"] == 1 and totals["fail"] == 0
    assert default.outputs.startswith("exit-code=0\n")
    strict = Step(tmp_path / "b", {**lenient, "fail-on": "warn"}, {})
    name = strict.outputs.rsplit("artifact-name=", 1)[1].strip()
    assert strict.outputs == _expected(1, "", strict.totals(), name)
    assert "warned=1\n" in strict.outputs and "failed=0\n" in strict.outputs
    assert "1 SHOULD verdicts fail this run (--fail-on warn)" in strict.done.stdout
    assert "Stricter: MUST under anthropic (" in strict.done.stdout


def test_the_profile_input_judges_under_the_strict_profile(tmp_path: Path) -> None:
    profiles = "anthropic-messages=anthropic-strict\nopenai-chat=openai"
    step = Step(tmp_path, {"adapter": SPLIT, "select": SPLIT_CASE, "profile": profiles}, {})
    totals = step.totals()
    assert totals["fail"] == 1 and totals["warn"] == 0
    assert step.outputs.startswith("exit-code=1\n")
    assert "(MUST under profile anthropic-strict)" in step.done.stdout


def test_a_bad_fail_on_is_a_usage_error(tmp_path: Path) -> None:
    step = Step(tmp_path, {"fail-on": "never"}, {})
    assert step.outputs.startswith("exit-code=2\n")
    assert "'never' is not one of 'must', 'warn'" in step.outputs
