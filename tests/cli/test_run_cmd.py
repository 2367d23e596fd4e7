from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from toolwire.harness.cli.main import cli

ADAPTERS = "tests.engine.test_adapters"


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["run", *args], catch_exceptions=False)


def _one_line_error(result: Result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("toolwire: error:")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_faithful_adapter_passes_with_exit_0() -> None:
    result = _run("--adapter", f"{ADAPTERS}:PassThrough", "--select", "single-tool/weather-*")
    assert result.exit_code == 0, result.output
    assert "PASS: exit 0" in result.output


def test_an_unknown_adapter_is_a_usage_error_with_one_line() -> None:
    result = _run("--adapter", "does.not:exist")
    assert result.exit_code == 2
    assert "cannot import module 'does.not'" in _one_line_error(result)


def test_an_adapter_that_raises_everywhere_is_reported_broken_with_exit_3() -> None:
    result = _run("--adapter", f"{ADAPTERS}:Raises", "--select", "single-tool/weather-*")
    assert result.exit_code == 3
    # weather-openai, -anthropic, -responses and -gemini
    assert "BROKEN: the adapter failed on every case (4)" in result.output
    assert result.output.count("upstream converter exploded") == 1


def test_an_adapter_that_hangs_is_stopped_by_the_timeout() -> None:
    result = _run(
        "--adapter",
        f"{ADAPTERS}:Sleeps",
        "--select",
        "single-tool/weather-openai",
        "--timeout",
        "0.2",
    )
    assert result.exit_code == 3
    assert "timed out" in result.output


def test_a_baselined_failure_is_xfail_and_a_stale_entry_fails(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.txt"
    baseline.write_text(
        "# known problems\n"
        "streaming/parallel-openai::schema.response  # returns garbage for streams\n"
        "streaming/parallel-openai::schema.request  # returns garbage\n"
    )
    garbage = _run(
        "--adapter",
        f"{ADAPTERS}:ReturnsGarbage",
        "--select",
        "streaming/parallel-openai",
        "--baseline",
        str(baseline),
        "--format",
        "json",
    )
    document = json.loads(garbage.output)
    outcomes = {v["rule"]: v["outcome"] for v in document["verdicts"]}
    assert outcomes["schema.response"] == "xfail"
    assert outcomes["schema.request"] == "xfail"
    assert garbage.exit_code == 0

    healthy = _run(
        "--adapter",
        f"{ADAPTERS}:PassThrough",
        "--select",
        "streaming/parallel-openai",
        "--baseline",
        str(baseline),
    )
    assert healthy.exit_code == 1
    assert healthy.output.count("STALE streaming/parallel-openai::schema.") == 2
    assert "Next: delete line 2 of the baseline: it passes now" in healthy.output
    assert "fix the converter" not in healthy.output  # nothing to fix but the list


def test_a_typo_in_the_baseline_names_the_line_and_the_fix(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.txt"
    baseline.write_text("single-tool/weather-openai::pairing.orphan_resutl  # typo\n")
    result = _run("--baseline", str(baseline))
    assert result.exit_code == 2
    line = _one_line_error(result)
    assert "baseline.txt:1: unknown rule code 'pairing.orphan_resutl'" in line
    assert "did you mean 'pairing.orphan_result'?" in line


def test_baseline_entries_need_a_reason_and_an_existing_case(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.txt"
    baseline.write_text("single-tool/weather-openai::pairing.orphan_result\n")
    assert "has no reason" in _one_line_error(_run("--baseline", str(baseline)))
    baseline.write_text("single-tool/wether-openai::pairing.orphan_result  # x\n")
    line = _one_line_error(_run("--baseline", str(baseline)))
    assert "no case 'single-tool/wether-openai'" in line
    assert "did you mean 'single-tool/weather-openai'?" in line
    baseline.write_text("single-tool/weather-openai pairing.orphan_result  # x\n")
    assert "write case-id::rule-code" in _one_line_error(_run("--baseline", str(baseline)))


def test_json_output_and_report_dir_hold_the_same_results(tmp_path: Path) -> None:
    result = _run(
        "--adapter",
        f"{ADAPTERS}:PassThrough",
        "--select",
        "thinking/*",
        "--format",
        "json",
        "--report-dir",
        str(tmp_path),
    )
    document = json.loads(result.output)
    written = json.loads((tmp_path / "results.json").read_text())
    assert document["totals"] == written["totals"]
    assert document["adapter"]["name"] == "pass-through"
    assert document["totals"]["pass"] > 0 and document["totals"]["fail"] == 0
    assert {"toolwire", "rules_version", "python", "platform", "started", "finished"} <= set(
        document
    )


def test_a_selection_matching_nothing_is_a_usage_error() -> None:
    result = _run("--select", "no-such-case")
    assert result.exit_code == 2
    assert "matches no case" in _one_line_error(result)


def test_a_bad_profile_option_names_the_valid_ones() -> None:
    result = _run("--profile", "anthropic-messages=strict")
    assert result.exit_code == 2
    assert "anthropic-strict" in _one_line_error(result)


def test_a_profile_of_another_dialect_is_a_usage_error() -> None:
    result = _run("--profile", "openai-chat=anthropic-strict")
    assert result.exit_code == 2
    assert "anthropic-strict is not a profile of openai-chat" in _one_line_error(result)
