"""benchmarks/ratio.py still runs: its figures for a tiny corpus, and the
child protocol that carries them out of another interpreter."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.corpus.loader import bundled_corpus_root

SCRIPT = PROJECT_ROOT / "benchmarks" / "ratio.py"


@pytest.fixture
def ratio(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script as a module; sys.path (which it extends) is restored after."""
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    return importlib.import_module("ratio")


def _tiny_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "single-tool").mkdir(parents=True)
    for cassette in sorted((bundled_corpus_root() / "single-tool").glob("*.yaml"))[:2]:
        shutil.copy(cassette, root / "single-tool" / cassette.name)
    return root


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=PROJECT_ROOT,
    )


def test_prints_and_writes_the_ratio_of_an_adapter(tmp_path: Path) -> None:
    corpus, figures = _tiny_corpus(tmp_path), tmp_path / "ratio.json"
    done = _run("reference", "--corpus", str(corpus), "--repeats", "1", "--json", str(figures))
    assert done.returncode == 0, done.stderr
    assert "2 cases" in done.stdout
    (row,) = json.loads(figures.read_text())
    assert row["adapter"] == "reference" and row["verdicts"] > 0
    assert row["harness_cpu_s"] > 0 and row["floor_cpu_s"] > 0
    # Each figure is rounded to 0.1 ms on its own; the ratio from the unrounded ones.
    assert row["ratio"] == pytest.approx(row["harness_cpu_s"] / row["floor_cpu_s"], rel=0.1)
    assert f"{row['ratio']:5.2f}x" in done.stdout


def test_child_reports_one_marked_line(tmp_path: Path, ratio: ModuleType) -> None:
    done = _run("--child", "reference", "--corpus", str(_tiny_corpus(tmp_path)), "--repeats", "1")
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith(ratio.MARK)]
    assert json.loads(line[len(ratio.MARK) :])["adapter"] == "reference"


def test_a_child_that_cannot_load_its_adapter_is_reported_not_raised(
    tmp_path: Path, ratio: ModuleType
) -> None:
    found = ratio.measure_in_environment(
        Path(sys.executable), "no_such_module:adapter", _tiny_corpus(tmp_path), 1
    )
    assert found["adapter"] == "no_such_module:adapter"
    assert found["skipped"].startswith("failed (exit ")
    assert "floor_cpu_s" not in found


def test_needs_something_to_measure() -> None:
    done = _run()
    assert done.returncode == 2
    assert "--third-party" in done.stderr
