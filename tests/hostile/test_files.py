"""Nothing a user has is lost (docs/hostile-input.md, rows F1-F8).

Every file toolwire writes goes through ``toolwire.harness.atomic_write``: a write
that fails (a full disk is simulated with RLIMIT_FSIZE, which makes a write
past the limit fail with EFBIG as a full disk fails with ENOSPC) or is
interrupted leaves the previous file whole and no temporary file behind, and
the command says so in one line with exit 2. A report folder that cannot
take the report is refused before the run.
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.hostile.cli import error_line, toolwire
from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.atomic_write import FileExistsRefused, FileWriteError, write_atomic
from toolwire.harness.cli.main import cli

ONE = "single-tool/weather-openai"
DOUBLE_ENCODED = "tests.selftest.broken_responses:DoubleEncodedArguments"
SMALL_FILES = 200  # bytes a process under test may write to one file


def _toolwire_with_small_files(*args: str) -> subprocess.CompletedProcess[str]:
    """`toolwire` where any file write past SMALL_FILES bytes fails (EFBIG)."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write, do not kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (SMALL_FILES, SMALL_FILES))

    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "toolwire.harness", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT_ROOT,
        timeout=120,
        preexec_fn=limit,
    )
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-3000:]
    return result


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_f1_a_failed_results_write_keeps_the_previous_results(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    first = toolwire("run", "--select", ONE, "--report-dir", str(reports))
    assert first.returncode == 0
    before = (reports / "results.json").read_bytes()
    assert len(before) > SMALL_FILES

    result = _toolwire_with_small_files("run", "--select", ONE, "--report-dir", str(reports))
    assert result.returncode == 2
    line = error_line(result)
    assert f"cannot write {reports / 'results.json'}: File too large" in line
    assert (reports / "results.json").read_bytes() == before
    assert _files(reports) == ["results.json"]  # no temporary file left


def test_f2_report_output_is_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    assert toolwire("run", "--select", ONE, "--report-dir", str(reports)).returncode == 0
    page = reports / "report.html"
    made = toolwire("report", str(reports / "results.json"), "--format", "html", "-o", str(page))
    assert made.returncode == 0
    before = page.read_bytes()

    result = _toolwire_with_small_files(
        "report", str(reports / "results.json"), "--format", "junit", "-o", str(page)
    )
    assert result.returncode == 2
    assert f"cannot write {page}: File too large" in error_line(result)
    assert page.read_bytes() == before
    assert _files(reports) == ["report.html", "results.json"]


@pytest.mark.parametrize("where", ["a file", "below a file"])
def test_f3_a_report_dir_that_cannot_hold_the_report_is_refused_before_the_run(
    tmp_path: Path, where: str
) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder", encoding="utf-8")
    report_dir = blocker if where == "a file" else blocker / "reports"
    result = toolwire("run", "--select", ONE, "--report-dir", str(report_dir))
    assert result.returncode == 2
    line = error_line(result)
    assert str(blocker) in line
    assert "toolwire run:" not in result.stdout  # nothing was judged
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_f4_an_interrupted_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "results.json"
    target.write_text("old", encoding="utf-8")

    def power_cut(_descriptor: int) -> None:
        raise KeyboardInterrupt  # Ctrl-C, or SIGTERM as toolwire turns it into one

    monkeypatch.setattr(os, "fsync", power_cut)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert _files(tmp_path) == ["results.json"]


def test_f5_corpus_add_interrupted_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    reports = tmp_path / "found"
    saved = _saved_failure(reports)
    calls = 0
    real_fsync = os.fsync

    def power_cut(descriptor: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:  # the scratch copy that is validated first, then the case itself
            raise KeyboardInterrupt
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", power_cut)
    result = CliRunner().invoke(cli, ["corpus", "add", str(saved), "--corpus", str(corpus)])
    assert calls == 2
    assert result.exit_code != 0
    left = [p for p in corpus.rglob("*") if p.is_file()] if corpus.exists() else []
    assert left == []


def _fuzz_args(folder: Path) -> list[str]:
    return [
        *("fuzz", "--adapter", DOUBLE_ENCODED, "--dialect", "anthropic-messages"),
        *("--examples", "40", "--seed", "9", "--save-failure", str(folder)),
    ]


def _saved_failure(folder: Path) -> Path:
    result = CliRunner().invoke(cli, _fuzz_args(folder))
    assert result.exit_code == 1, result.output
    [saved] = sorted(folder.glob("*.yaml"))
    return saved


def test_f6_a_saved_fuzz_failure_never_replaces_an_edited_cassette(tmp_path: Path) -> None:
    folder = tmp_path / "found"
    saved = _saved_failure(folder)
    # The same run again finds the same failure: an identical file is fine.
    assert _saved_failure(folder) == saved

    edited = saved.read_text(encoding="utf-8").replace("description:", "description: mine,", 1)
    saved.write_text(edited, encoding="utf-8")
    result = CliRunner().invoke(cli, _fuzz_args(folder))
    assert result.exit_code == 2
    assert "FUZZ FAILURE fidelity.arguments" in result.stdout  # the report is still printed
    assert f"not saved: {saved} exists and differs" in result.stderr
    assert saved.read_text(encoding="utf-8") == edited
    assert _files(folder) == [saved.name]


def test_f6_a_save_folder_that_is_a_file_is_refused_before_fuzzing(tmp_path: Path) -> None:
    blocker = tmp_path / "found"
    blocker.write_text("x", encoding="utf-8")
    folder = blocker / "failures"
    result = CliRunner().invoke(cli, ["fuzz", "--save-failure", str(folder), "--examples", "1"])
    assert result.exit_code == 2
    assert "fuzzing" not in result.stderr
    assert f"cannot write {folder}: {blocker} is a file, not a folder" in result.stderr


def test_f7_new_files_get_the_usual_permissions_and_replaced_ones_keep_theirs(
    tmp_path: Path,
) -> None:
    fresh = tmp_path / "fresh.json"
    write_atomic(fresh, "{}")
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask

    shared = tmp_path / "shared.json"
    shared.write_text("old", encoding="utf-8")
    shared.chmod(0o640)
    write_atomic(shared, "new")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640
    assert shared.read_text(encoding="utf-8") == "new"


def test_f8_overwrite_false_refuses_and_a_write_error_is_one_line(tmp_path: Path) -> None:
    kept = tmp_path / "case.yaml"
    kept.write_text("mine", encoding="utf-8")
    with pytest.raises(FileExistsRefused):
        write_atomic(kept, "theirs", overwrite=False)
    assert kept.read_text(encoding="utf-8") == "mine"
    assert _files(tmp_path) == ["case.yaml"]

    with pytest.raises(FileWriteError, match=r"case.yaml is a file, not a folder") as caught:
        write_atomic(kept / "below.json", "x")
    assert caught.value.exit_code == 2
    assert "\n" not in str(caught.value)
