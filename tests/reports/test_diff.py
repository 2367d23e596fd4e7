"""`toolwire diff OLD NEW`: regressions exit 1, everything else 0, changes named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from tests.reports.factory import document, verdict, with_outcome
from toolwire.harness.cli.main import cli
from toolwire.harness.reports.diff import diff_results

CASE, RULE = "single/weather", "pairing.id_changed"


def _baseline() -> dict[str, Any]:
    return document(
        [
            verdict(CASE, RULE),
            verdict(CASE, "fidelity.arguments", "fail", "argument city changed"),
            verdict("parallel/two", RULE),
        ]
    )


def _diff(tmp_path: Path, old: dict[str, Any], new: dict[str, Any], *options: str) -> Result:
    paths = []
    for name, content in (("old.json", old), ("new.json", new)):
        path = tmp_path / name
        path.write_text(json.dumps(content))
        paths.append(str(path))
    return CliRunner().invoke(cli, ["diff", *paths, *options])


def test_a_newly_failing_verdict_exits_1_and_names_the_rule(tmp_path: Path) -> None:
    old = _baseline()
    new = with_outcome(old, CASE, RULE, "fail")
    result = _diff(tmp_path, old, new)
    assert result.exit_code == 1, result.output
    assert f"newly failing (1):\n  {CASE}::{RULE}  pass -> fail" in result.output
    assert f"newly failing rules: {RULE} (1)" in result.output
    assert result.output.rstrip().endswith("REGRESSION: exit 1")


def test_newly_passing_only_exits_0(tmp_path: Path) -> None:
    old = _baseline()
    new = with_outcome(old, CASE, "fidelity.arguments", "pass")
    result = _diff(tmp_path, old, new)
    assert result.exit_code == 0, result.output
    assert f"newly passing (1):\n  {CASE}::fidelity.arguments  fail -> pass" in result.output
    assert "newly failing" not in result.output


def test_identical_results_exit_0(tmp_path: Path) -> None:
    result = _diff(tmp_path, _baseline(), _baseline())
    assert result.exit_code == 0
    assert "no verdict changed" in result.output
    assert "changed " not in result.output  # no header field changed either


def test_version_changes_are_reported(tmp_path: Path) -> None:
    old = _baseline()
    new = document(old["verdicts"], adapter_version="1.1", corpus_version="beefbeef0002")
    result = _diff(tmp_path, old, new)
    assert result.exit_code == 0
    assert "changed adapter.version: 1.0 -> 1.1" in result.output
    assert "changed corpus.version: c0ffee000001 -> beefbeef0002" in result.output
    data = json.loads(_diff(tmp_path, old, new, "--format", "json").output)
    assert {"field": "adapter.version", "old": "1.0", "new": "1.1"} in data["header_changes"]


def test_appeared_disappeared_and_other_changes() -> None:
    old = _baseline()
    new = document(
        [
            verdict(CASE, RULE, "warn", "SHOULD now fails"),  # pass -> warn: changed, not failing
            verdict(CASE, "fidelity.arguments", "xfail", "baselined"),  # fail -> xfail
            verdict("new/case", RULE, "fail", "a new case that fails"),  # appeared and failing
        ]
    )
    diff = diff_results(old, new)
    assert [(c.case, c.rule, c.old, c.new) for c in diff.newly_failing] == [
        ("new/case", RULE, None, "fail")
    ]
    assert {(c.rule, c.old, c.new) for c in diff.changed} == {
        (RULE, "pass", "warn"),
        ("fidelity.arguments", "fail", "xfail"),
    }
    assert [(c.case, c.new) for c in diff.appeared] == [("new/case", "fail")]
    assert [(c.case, c.old, c.new) for c in diff.disappeared] == [("parallel/two", "pass", None)]
    assert diff.newly_passing == ()
    assert diff.exit_code == 1


def test_json_output_lists_everything(tmp_path: Path) -> None:
    old = _baseline()
    new = with_outcome(old, "parallel/two", RULE, "error")
    result = _diff(tmp_path, old, new, "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["exit_code"] == 1
    assert data["newly_failing_rules"] == {RULE: 1}
    assert data["newly_failing"] == [
        {"case": "parallel/two", "rule": RULE, "old": "pass", "new": "error", "message": "changed"}
    ]
    assert data["totals"]["new"]["error"] == 1


def test_an_adapter_upgrade_between_real_runs(real_results: dict[str, Path]) -> None:
    result = CliRunner().invoke(
        cli, ["diff", str(real_results["reference"]), str(real_results["renames-ids"])]
    )
    assert result.exit_code == 1
    assert "changed adapter.name: reference -> renames-ids" in result.output
    assert "pairing.orphan_result" in result.output.split("newly failing rules:")[1]
    back = CliRunner().invoke(
        cli, ["diff", str(real_results["renames-ids"]), str(real_results["reference"])]
    )
    assert back.exit_code == 0
    assert "newly passing" in back.output and "newly failing" not in back.output


def test_a_bad_file_is_a_one_line_usage_error(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_baseline()))
    result = CliRunner().invoke(cli, ["diff", str(good), str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "missing.json: no such results file" in lines[0]
