"""`report`, `diff`, `adapter-protocol --validate` and `run --baseline` on files they cannot read
(issue 16, item 8, that part): not UTF-8, nested past the recursion limit, an
integer past Python's 4,300-digit limit. One line each, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.cli import error_line, toolwire

CONTENTS = {
    "not UTF-8": (b'\xff\xfe{"a": 1}', "is not UTF-8 text"),
    "deep": (b"[" * 100_000 + b"]" * 100_000, "nested deeper than toolwire can read"),
    "huge integer": (
        b'{"version": ' + b"9" * 5000 + b"}",
        "has more than 4,300 digits",
    ),
}


@pytest.mark.parametrize("name", list(CONTENTS))
@pytest.mark.parametrize("command", ["report", "diff"])
def test_report_and_diff_refuse_an_unreadable_results_file(
    tmp_path: Path, name: str, command: str
) -> None:
    data, expected = CONTENTS[name]
    path = tmp_path / "results.json"
    path.write_bytes(data)
    args = [str(path), "--format", "md"] if command == "report" else [str(path), str(path)]
    result = toolwire(command, *args)
    assert result.returncode == 2
    assert expected in error_line(result)


@pytest.mark.parametrize("name", list(CONTENTS))
def test_adapter_protocol_validate_refuses_an_unreadable_transcript(
    tmp_path: Path, name: str
) -> None:
    data, expected = CONTENTS[name]
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(data)
    result = toolwire("adapter-protocol", "--validate", str(path))
    if name == "not UTF-8":
        assert result.returncode == 2
        assert expected in error_line(result)
    else:  # a line that cannot be read is an invalid transcript, as any bad line is
        assert result.returncode == 1
        assert "INVALID: line 1 of the transcript is not JSON" in result.stdout
        assert expected in result.stdout


def test_a_baseline_that_is_not_utf8_is_a_usage_error(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.txt"
    baseline.write_bytes(b"single-tool/weather-openai::schema.request  # \xff\n")
    result = toolwire("run", "--select", "single-tool/weather-openai", "--baseline", str(baseline))
    assert result.returncode == 2
    assert f"baseline {baseline} is not UTF-8 text" in error_line(result)
