"""`toolwire report`: every format from a results file, and one-line errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.reports.factory import mixed_document
from toolwire.harness.cli.main import cli
from toolwire.harness.reports.load import ResultsFileError, check_results


def _report(*args: str) -> Result:
    return CliRunner().invoke(cli, ["report", *args])


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("toolwire: error: ")
    return lines[0]


def _write(tmp_path: Path, content: Any, name: str = "results.json") -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


@pytest.mark.parametrize(
    ("format_name", "marker"),
    [
        ("junit", "<testsuites"),
        ("md", "## toolwire: FAIL"),
        ("html", "<!DOCTYPE html>"),
        ("badge", '"schemaVersion": 1'),
    ],
)
def test_each_format_renders_a_real_results_file(
    format_name: str, marker: str, real_results: dict[str, Path], tmp_path: Path
) -> None:
    printed = _report(str(real_results["renames-ids"]), "--format", format_name)
    assert printed.exit_code == 0, printed.output
    assert marker in printed.output
    target = tmp_path / "out" / f"report.{format_name}"
    written = _report(str(real_results["renames-ids"]), "--format", format_name, "-o", str(target))
    assert written.exit_code == 0, written.output
    assert written.output == ""
    assert target.read_text() == printed.output


def test_a_missing_results_file(tmp_path: Path) -> None:
    line = _one_line_error(_report(str(tmp_path / "nope.json"), "--format", "md"))
    assert "nope.json: no such results file" in line
    assert "toolwire run --report-dir" in line


def test_a_folder_instead_of_a_file(tmp_path: Path) -> None:
    line = _one_line_error(_report(str(tmp_path), "--format", "md"))
    assert "is a folder" in line
    assert "results.json" in line


def test_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = _write(tmp_path, "<testsuites/>", "junit.xml")
    line = _one_line_error(_report(str(path), "--format", "html"))
    assert "junit.xml: is not JSON (Expecting value at line 1 column 1)" in line


def test_json_that_is_not_a_results_document(tmp_path: Path) -> None:
    path = _write(tmp_path, {"schemaVersion": 1, "label": "toolwire", "message": "ok"})
    line = _one_line_error(_report(str(path), "--format", "md"))
    assert "is not a toolwire results document" in line


def test_a_newer_results_format_asks_for_an_upgrade(tmp_path: Path) -> None:
    path = _write(tmp_path, {**mixed_document(), "format": 2})
    line = _one_line_error(_report(str(path), "--format", "badge"))
    assert "results format 2 is not 1" in line
    assert "upgrade toolwire" in line


def test_a_schema_violation_names_the_json_path(tmp_path: Path) -> None:
    document = mixed_document()
    document["verdicts"][2]["outcome"] = "sort-of"
    line = _one_line_error(_report(str(_write(tmp_path, document)), "--format", "junit"))
    assert "does not match the results schema at $.verdicts[2].outcome" in line
    assert "'sort-of' is not one of" in line
    assert "toolwire run --schema" in line


def test_an_unknown_format_is_a_usage_error(tmp_path: Path) -> None:
    result = _report(str(_write(tmp_path, mixed_document())), "--format", "pdf")
    assert result.exit_code == 2
    assert "'pdf' is not one of 'junit', 'md', 'html', 'badge'" in result.output


def test_an_unwritable_output(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    results = _write(tmp_path, mixed_document())
    line = _one_line_error(_report(str(results), "--format", "md", "-o", str(blocker / "x.md")))
    assert f"cannot write {blocker / 'x.md'}" in line


def test_check_results_accepts_a_valid_document_unchanged() -> None:
    document = mixed_document()
    assert check_results(document) is document
    with pytest.raises(ResultsFileError, match="not a toolwire results document"):
        check_results([document])
