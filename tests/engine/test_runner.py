from __future__ import annotations

import pytest

from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.session import Selection, run_corpus

CORPUS = load_corpus(bundled_corpus_root())
ADAPTERS = "tests.engine.test_adapters"


def _options(timeout: float = 10.0) -> RunOptions:
    return RunOptions(timeout=timeout, corpus=CORPUS)


def test_a_faithful_pass_through_passes_every_rule_on_every_case() -> None:
    adapter = load_adapter(f"{ADAPTERS}:PassThrough")
    result = run_corpus(CORPUS, adapter, _options())
    # Output equal to its input can only warn where the input itself does (a
    # SHOULD payload rule). It changed no order: ordering.result_order holds it
    # even on the client's out-of-order results (issue 27).
    bad = [v for v in result.verdicts if v.outcome not in ("pass", "warn")]
    assert bad == [], "\n".join(f"{v.item_id}: {v.message}" for v in bad)
    kept = [v for v in result.verdicts if v.rule_code == "ordering.result_order"]
    assert kept and {v.outcome for v in kept} == {"pass"}
    judged_rules = {v.rule_code for v in result.verdicts}
    assert "pairing.orphan_result" in judged_rules
    assert result.exit_code == 0


def test_an_adapter_that_raises_gives_one_error_verdict_per_case_and_a_broken_line() -> None:
    adapter = load_adapter(f"{ADAPTERS}:Raises")
    result = run_corpus(CORPUS, adapter, _options(), Selection.parse("single-tool/*"))
    assert {v.outcome for v in result.verdicts} == {"error"}
    assert all("RuntimeError: upstream converter exploded" in v.message for v in result.verdicts)
    assert result.broken is not None and "failed on every case" in result.broken
    assert result.exit_code == 3


def test_a_hanging_adapter_is_stopped_by_the_per_case_timeout() -> None:
    adapter = load_adapter(f"{ADAPTERS}:Sleeps")
    case = CORPUS["single-tool/weather-openai"]
    verdicts = run_case(case, adapter, _options(timeout=0.2))
    assert [v.outcome for v in verdicts] == ["error"]
    assert "timed out" in verdicts[0].message


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Exits", "SystemExit"),
        ("ReturnsNone", "returned None"),
    ],
)
def test_misbehaving_adapters_become_error_verdicts(name: str, expected: str) -> None:
    adapter = load_adapter(f"{ADAPTERS}:{name}")
    verdicts = run_case(CORPUS["single-tool/weather-openai"], adapter, _options())
    assert [v.outcome for v in verdicts] == ["error"]
    assert expected in verdicts[0].message


def test_output_the_target_codec_cannot_read_fails_the_schema_rules() -> None:
    adapter = load_adapter(f"{ADAPTERS}:ReturnsGarbage")
    verdicts = run_case(CORPUS["streaming/parallel-openai"], adapter, _options())
    by_rule = {v.rule_code: v for v in verdicts}
    assert by_rule["schema.request"].outcome == "fail"
    assert by_rule["schema.response"].outcome == "fail"
    assert "does not parse as openai-chat" in by_rule["schema.response"].message


def test_an_adapter_that_mutates_its_input_cannot_change_the_source() -> None:
    adapter = load_adapter(f"{ADAPTERS}:MutatesInput")
    case = CORPUS["single-tool/weather-openai"]
    before = [i.request_json() for i in case.interactions]
    run_case(case, adapter, _options())
    assert [i.request_json() for i in case.interactions] == before


def test_one_failing_case_does_not_stop_the_others() -> None:
    adapter = load_adapter(f"{ADAPTERS}:RaisesOnlyOnParallel")
    result = run_corpus(CORPUS, adapter, _options(), Selection.parse("parallel/*,single-tool/*"))
    errored = {v.case_id for v in result.verdicts if v.outcome == "error"}
    passed = {v.case_id for v in result.verdicts if v.outcome == "pass"}
    assert errored and passed and not errored & passed
    assert result.broken is None
    assert result.exit_code == 3


def test_directions_the_adapter_lacks_are_unsupported_never_pass() -> None:
    adapter = load_adapter("tests.adapters.sample_adapters:ECHO")  # openai-chat requests only
    verdicts = run_case(CORPUS["single-tool/weather-anthropic"], adapter, _options())
    assert [v.outcome for v in verdicts] == ["unsupported"]
    openai = run_case(CORPUS["single-tool/weather-openai"], adapter, _options())
    assert {v.outcome for v in openai} == {"pass", "unsupported"}  # the response has no direction


def test_negative_cases_are_not_run_through_adapters() -> None:
    negative = [case for case in CORPUS if case.is_negative]
    adapter = load_adapter(f"{ADAPTERS}:PassThrough")
    for case in negative:
        assert run_case(case, adapter, _options()) == []


def test_a_conversion_the_adapter_declines_is_unsupported_not_error() -> None:
    verdicts = run_case(
        CORPUS["single-tool/weather-openai"], load_adapter(f"{ADAPTERS}:Declines"), _options()
    )
    assert [v.outcome for v in verdicts] == ["unsupported"]
    assert "no faithful form for this payload" in verdicts[0].message
