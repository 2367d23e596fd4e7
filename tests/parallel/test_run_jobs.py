"""`toolwire run --jobs N`: the verdicts and results of a serial run (docs/hostile-input.md, J1-J5).

Apart from its start and end times, the results JSON of ``--jobs 2`` is the
results JSON of ``--jobs 1``: same verdicts, same order, same totals, same
report bytes; only the controller writes it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.hostile.cli import toolwire
from tests.parallel.support import small_corpus, without_timings
from toolwire.harness.cli.main import cli

ENGINE_ADAPTERS = "tests.engine.test_adapters"


def _results(*args: str, jobs: str, report_dir: Path) -> tuple[int, dict[str, Any]]:
    result = toolwire("run", *args, "--jobs", jobs, "--report-dir", str(report_dir), timeout=600)
    document = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in report_dir.iterdir()) == ["results.json"]
    return result.returncode, document


def test_j1_the_bundled_corpus_gives_the_same_results_with_two_jobs(tmp_path: Path) -> None:
    serial_code, serial = _results(jobs="1", report_dir=tmp_path / "serial")
    parallel_code, parallel = _results(jobs="2", report_dir=tmp_path / "parallel")
    assert serial_code == parallel_code == 0
    assert serial["totals"]["pass"] > 1000
    assert [v["id"] for v in parallel["verdicts"]] == [v["id"] for v in serial["verdicts"]]
    assert without_timings(parallel) == without_timings(serial)


@pytest.mark.parametrize(
    "adapter",
    [
        f"{ENGINE_ADAPTERS}:RaisesOnlyOnParallel",  # errors on some cases only
        f"{ENGINE_ADAPTERS}:ReturnsGarbage",  # fails the schema rules everywhere
        "tests.hostile.adapters:CallsOsExit",  # errors stopped by the exit guard
    ],
)
def test_j2_failures_errors_and_baselines_are_the_same_with_three_jobs(
    tmp_path: Path, adapter: str
) -> None:
    corpus = small_corpus(tmp_path / "corpus")
    baseline = tmp_path / "baseline.txt"
    baseline.write_text(
        "single-tool/weather-openai::schema.request  # known\n"
        "parallel/two-cities-openai::pairing.orphan_result  # stale unless it fails\n"
    )
    args = ("--adapter", adapter, "--corpus", str(corpus), "--baseline", str(baseline))
    serial_code, serial = _results(*args, jobs="1", report_dir=tmp_path / "serial")
    parallel_code, parallel = _results(*args, jobs="3", report_dir=tmp_path / "parallel")
    assert serial_code == parallel_code != 0
    outcomes = {v["outcome"] for v in serial["verdicts"]}
    assert outcomes & {"fail", "error"}  # the comparison covers failing verdicts too
    assert without_timings(parallel) == without_timings(serial)


def test_j3_the_summary_text_is_the_same_too(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path / "corpus"))
    args = ("run", "--adapter", f"{ENGINE_ADAPTERS}:ReturnsGarbage", "--corpus", corpus)
    serial = toolwire(*args, "--jobs", "1")
    parallel = toolwire(*args, "--jobs", "2")
    assert serial.returncode == parallel.returncode == 1
    assert parallel.stdout == serial.stdout
    assert "FAIL: exit 1" in serial.stdout


def test_j4_jobs_auto_means_one_per_cpu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[int] = []

    def fake_run_corpus(*args: Any, jobs: int = 1, **kwargs: Any) -> Any:
        seen.append(jobs)
        raise SystemExit(0)

    monkeypatch.setattr("toolwire.harness.engine.session.run_corpus", fake_run_corpus)
    monkeypatch.setattr(os, "cpu_count", lambda: 7)
    CliRunner().invoke(cli, ["run", "--jobs", "auto", "--corpus", str(small_corpus(tmp_path))])
    CliRunner().invoke(cli, ["run", "--jobs", "4", "--corpus", str(tmp_path)])
    assert seen == [7, 4]


@pytest.mark.parametrize("value", ["0", "-2", "many", ""])
def test_j5_a_bad_jobs_value_is_a_usage_error(value: str) -> None:
    result = CliRunner().invoke(cli, ["run", "--jobs", value])
    assert result.exit_code == 2
    assert "Invalid value for '--jobs'" in result.output
    assert "use 1, 2, ... or auto" in result.output
