"""Strict mode in the plugin: --toolwire-fail-on warn fails a case on a SHOULD
verdict, --toolwire-profile judges under a stricter profile, and the summary
says under which profile each SHOULD rule is a MUST (pytester subprocesses)."""

from __future__ import annotations

import json

import pytest

from tests.plugin.support import CASE_IDS, PASS, tiny_corpus

# A SHOULD toward a target that merges consecutive user messages (the profile
# anthropic-merging), a MUST under the default anthropic and under anthropic-strict.
SPLIT = "tests.selftest.broken_requests:ResultsSplit"
MERGING = ("--toolwire-profile", "anthropic-messages=anthropic-merging")
SPLIT_CASE = "parallel/two-cities-openai"
# and parallel/results-out-of-order-openai, and parallel/two-cities-anthropic,
# whose trip through openai-chat comes back split.
SPLIT_CASES = 3
STRICT = "anthropic-messages=anthropic-strict"


def _run(tw: pytest.Pytester, adapter: str, *extra: str) -> pytest.RunResult:
    corpus = tiny_corpus(tw.path / "corpus")
    return tw.runpytest_subprocess(
        "--toolwire-adapter", adapter, "--toolwire-corpus", str(corpus), "-p", "no:randomly", *extra
    )


def test_by_default_a_should_verdict_passes_and_says_where_it_is_a_must(
    tw: pytest.Pytester,
) -> None:
    result = _run(tw, SPLIT, *MERGING)
    result.assert_outcomes(passed=len(CASE_IDS))
    result.stdout.fnmatch_lines(
        [
            "SHOULD verdicts (3; advice: they do not fail their cases; "
            "--toolwire-fail-on warn fails them):",
            f"  {SPLIT_CASE}::ordering.parallel_results_split[[]results-split[]]: *",
            "ordering.parallel_results_split: MUST under anthropic (Every real Anthropic-format "
            f"endpoint*400*--profile {STRICT}",
        ]
    )


@pytest.mark.parametrize("how", ["option", "ini"])
def test_fail_on_warn_fails_the_case_of_a_should_verdict(tw: pytest.Pytester, how: str) -> None:
    extra: tuple[str, ...] = ("--toolwire-fail-on", "warn")
    if how == "ini":
        tw.makeini("[pytest]\ntoolwire_fail_on = warn\n")
        extra = ()
    report_dir = tw.path / "reports"
    result = _run(tw, SPLIT, "--toolwire-report-dir", str(report_dir), *MERGING, *extra)
    result.assert_outcomes(passed=len(CASE_IDS) - SPLIT_CASES, failed=SPLIT_CASES)
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            f"*_ {SPLIT_CASE}[[]results-split[]] _*",
            f"WARN {SPLIT_CASE}::ordering.parallel_results_split[[]results-split[]] (SHOULD *",
            "  Stricter: MUST under anthropic *",
            "SHOULD verdicts (3; they fail their cases: --toolwire-fail-on warn):",
        ]
    )
    document = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    assert document["exit_code"] == 1 and document["totals"]["warn"] == SPLIT_CASES


def test_fail_on_warn_leaves_a_faithful_adapter_passing(tw: pytest.Pytester) -> None:
    result = _run(tw, PASS, "--toolwire-fail-on", "warn")
    result.assert_outcomes(passed=len(CASE_IDS))
    assert result.ret == 0


def test_a_bad_fail_on_is_a_usage_error(tw: pytest.Pytester) -> None:
    tw.makeini("[pytest]\ntoolwire_fail_on = never\n")
    result = _run(tw, PASS)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*toolwire_fail_on = 'never' is not one of must, warn*"])


@pytest.mark.parametrize("how", ["option", "ini"])
def test_the_strict_profile_makes_it_a_must_failure(tw: pytest.Pytester, how: str) -> None:
    extra: tuple[str, ...] = ("--toolwire-profile", STRICT)
    if how == "ini":
        tw.makeini(f"[pytest]\ntoolwire_profile =\n    {STRICT}\n")
        extra = ()
    report_dir = tw.path / "reports"
    result = _run(tw, SPLIT, "--toolwire-report-dir", str(report_dir), *extra)
    result.assert_outcomes(passed=len(CASE_IDS) - SPLIT_CASES, failed=SPLIT_CASES)
    result.stdout.fnmatch_lines(
        [
            "FAIL *::ordering.parallel_results_split[[]results-split[]] (MUST under profile "
            "anthropic-strict)"
        ]
    )
    document = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    assert document["profiles"] == {"anthropic-messages": "anthropic-strict"}


def test_a_wrong_profile_is_a_usage_error(tw: pytest.Pytester) -> None:
    result = _run(tw, PASS, "--toolwire-profile", "openai-chat=anthropic-strict")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*anthropic-strict is not a profile of openai-chat*"])


def test_under_xdist_fail_on_and_profile_reach_the_workers(tw: pytest.Pytester) -> None:
    strict = _run(tw, SPLIT, "-n", "2", "--toolwire-fail-on", "warn", *MERGING)
    strict.assert_outcomes(passed=len(CASE_IDS) - SPLIT_CASES, failed=SPLIT_CASES)
    # Under the lenient profile the split is a SHOULD: the cases pass only where
    # the workers judge under it (the default anthropic fails them).
    profiled = _run(tw, SPLIT, "-n", "2", *MERGING)
    profiled.assert_outcomes(passed=len(CASE_IDS))
