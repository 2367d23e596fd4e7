"""The pytest plugin, run in real pytest subprocesses (pytester)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests.support.real_transcripts import PROJECT_ROOT

ADAPTERS = "tests.engine.test_adapters"
PASS = f"{ADAPTERS}:PassThrough"
GARBAGE = f"{ADAPTERS}:ReturnsGarbage"


@pytest.fixture
def tw(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(PROJECT_ROOT))
    return pytester


def test_options_are_in_one_group_with_ini_mirrors(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["toolwire conformance checks:", "*--toolwire-adapter=SPEC*"])
    result.stdout.fnmatch_lines(["*toolwire_adapter*", "*toolwire_baseline*"])


def test_items_carry_case_rule_and_adapter_ids(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--toolwire-adapter", PASS, "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "parallel/two-cities-anthropic::ordering.result_after_text[[]pass-through[]]",
            "single-tool/weather-openai::pairing.orphan_result[[]pass-through[]]",
        ]
    )
    assert result.ret == 0


def test_a_faithful_adapter_passes_and_the_summary_counts_outcomes(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--toolwire-adapter", PASS)
    outcomes = result.parseoutcomes()
    # SHOULD verdicts surface as pytest warnings (results out of order in the input).
    result.assert_outcomes(passed=outcomes["passed"], warnings=outcomes.get("warnings", 0))
    result.stdout.fnmatch_lines(["*= toolwire =*", "adapter pass-through 1 on * cases", "* pass*"])
    assert result.ret == 0


def test_k_selects_and_failures_explain_themselves(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess(
        "--toolwire-adapter", GARBAGE, "-k", "parallel-openai and schema"
    )
    result.assert_outcomes(failed=2, deselected=result.parseoutcomes()["deselected"])
    result.stdout.fnmatch_lines(
        [
            "FAIL streaming/parallel-openai::schema.request[[]returns-garbage[]] (MUST *",
            "  Rule: Every request validates against its dialect's JSON Schema.",
            "  Next: fix the converter, or list it in a baseline file: *",
        ]
    )
    assert result.ret == 1


def test_x_stops_at_the_first_failure(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--toolwire-adapter", GARBAGE, "-x")
    assert result.parseoutcomes()["failed"] == 1


def test_last_failed_reruns_only_the_failures(tw: pytest.Pytester) -> None:
    tw.runpytest_subprocess("--toolwire-adapter", GARBAGE, "-k", "weather-openai")
    rerun = tw.runpytest_subprocess("--toolwire-adapter", GARBAGE, "--lf", "-q")
    outcomes = rerun.parseoutcomes()
    assert outcomes["failed"] >= 1
    assert "passed" not in outcomes


def test_baseline_xfail_and_stale_through_the_ini_file(tw: pytest.Pytester) -> None:
    tw.path.joinpath("baseline.txt").write_text(
        "single-tool/weather-openai::schema.request  # garbage out\n"
    )
    tw.makeini(f"[pytest]\ntoolwire_adapter = {GARBAGE}\ntoolwire_baseline = baseline.txt\n")
    result = tw.runpytest_subprocess("-k", "weather-openai and schema.request")
    result.assert_outcomes(xfailed=1, deselected=result.parseoutcomes()["deselected"])
    assert result.ret == 0
    stale = tw.runpytest_subprocess("--toolwire-adapter", PASS, "-k", "weather-openai")
    stale.stdout.fnmatch_lines(
        ["*stale baseline entry: single-tool/weather-openai::schema.request*"]
    )
    assert stale.ret == 1


def test_a_bad_adapter_is_a_usage_error(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--toolwire-adapter", "does.not:exist")
    result.stderr.fnmatch_lines(["*toolwire: adapter 'does.not:exist': cannot import module*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_junitxml_has_one_testcase_per_verdict(tw: pytest.Pytester) -> None:
    report = tw.path / "junit.xml"
    tw.runpytest_subprocess(
        "--toolwire-adapter", GARBAGE, "-k", "weather-openai", f"--junitxml={report}"
    )
    cases = ElementTree.parse(report).getroot().iter("testcase")
    # pytest's JUnit writer splits the node id at "::" into classname and name.
    names = {(case.get("classname"), case.get("name")): case for case in cases}
    failed = names[("single-tool.weather-openai", "schema.request[returns-garbage]")]
    assert failed.find("failure") is not None
    assert "schema.request" in (failed.find("failure").get("message") or "")  # type: ignore[union-attr]


def test_disabled_with_p_no_toolwire(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("-p", "no:toolwire", "--toolwire-adapter", PASS)
    result.stderr.fnmatch_lines(["*unrecognized arguments: --toolwire-adapter*"])


def test_only_the_controller_writes_the_report_under_xdist(tw: pytest.Pytester) -> None:
    reports = tw.path / "reports"
    result = tw.runpytest_subprocess(
        "--toolwire-adapter", PASS, "-n", "2", f"--toolwire-report-dir={reports}", "-k", "thinking"
    )
    assert result.ret == 0
    document = json.loads((reports / "results.json").read_text())
    assert document["adapter"]["name"] == "pass-through"
    assert sorted(p.name for p in reports.iterdir()) == ["results.json"]


def test_a_worker_session_writes_nothing(tmp_path: Path) -> None:
    from harness import pytest_plugin

    class WorkerConfig:
        def __init__(self) -> None:
            self.workerinput: dict[str, str] = {}
            self.workeroutput: dict[str, str] = {}
            self.stash = {pytest_plugin._STATE: pytest_plugin._ToolwireState({"totals": {}})}

        def getoption(self, name: str) -> str | None:
            return str(tmp_path) if name == pytest_plugin.OPTION_REPORT_DIR else None

        def getini(self, name: str) -> None:
            return None

    class Session:
        config = WorkerConfig()

    session = Session()
    pytest_plugin.pytest_sessionfinish(session)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
    assert "toolwire_results" in session.config.workeroutput


def test_the_plugin_imports_nothing_heavy_until_used() -> None:
    code = (
        "import sys, harness.pytest_plugin\n"
        "heavy = [m for m in ('harness.engine', 'jsonschema', 'deepdiff', 'yaml', 'vcr') "
        "if m in sys.modules]\n"
        "print(heavy)\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "[]"
