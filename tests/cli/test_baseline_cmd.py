"""`toolwire baseline`: from a results file to a baseline a run accepts."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from toolwire.harness.cli.main import cli

ADAPTERS = "tests.engine.test_adapters"


def _cli(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _results(tmp_path: Path, *extra: str) -> Path:
    folder = tmp_path / "out"
    result = _cli(
        "run",
        "--adapter",
        f"{ADAPTERS}:ReturnsGarbage",
        "--select",
        "streaming/parallel-openai",
        "--report-dir",
        str(folder),
        *extra,
    )
    assert result.exit_code in (0, 1), result.output
    return folder / "results.json"


def _failures(results: Path) -> set[str]:
    document = json.loads(results.read_text(encoding="utf-8"))
    return {f"{v['case']}::{v['rule']}" for v in document["verdicts"] if v["outcome"] == "fail"}


def test_a_baseline_from_results_makes_the_next_run_pass(tmp_path: Path) -> None:
    results = _results(tmp_path)
    failing = _failures(results)
    assert failing  # garbage breaks schema rules on this case
    baseline = tmp_path / "baseline.txt"
    written = _cli("baseline", str(results), "-o", str(baseline))
    assert written.exit_code == 0, written.output
    assert f"wrote {len(failing)} baseline entr" in written.output
    lines = [line for line in baseline.read_text().splitlines() if not line.startswith("#")]
    assert {line.split("  #")[0] for line in lines} == failing
    assert all(line.endswith("# TODO: say why this failure is accepted") for line in lines)
    rerun = _results(tmp_path, "--baseline", str(baseline))
    assert _failures(rerun) == set()
    # Regenerated from a baselined run, the entries and their reasons are kept.
    baseline.write_text(
        baseline.read_text().replace("TODO: say why this failure is accepted", "known")
    )
    rerun = _results(tmp_path, "--baseline", str(baseline))
    again = _cli("baseline", str(rerun))
    assert again.exit_code == 0
    assert [line for line in again.output.splitlines() if not line.startswith("#")] == [
        line.replace("TODO: say why this failure is accepted", "known") for line in lines
    ]


def test_an_existing_output_file_is_never_replaced_silently(tmp_path: Path) -> None:
    results = _results(tmp_path)
    kept = tmp_path / "baseline.txt"
    kept.write_text("# my reasons\n")
    refused = _cli("baseline", str(results), "-o", str(kept))
    assert refused.exit_code == 2
    assert "exists; pass --force" in refused.output
    assert kept.read_text() == "# my reasons\n"
    forced = _cli("baseline", str(results), "-o", str(kept), "--force")
    assert forced.exit_code == 0
    assert kept.read_text() != "# my reasons\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".baseline")] == []


def test_a_missing_results_file_is_one_line(tmp_path: Path) -> None:
    result = _cli("baseline", str(tmp_path / "nope.json"))
    assert result.exit_code == 2
    assert "no such results file" in result.output
    assert "Traceback" not in result.output
