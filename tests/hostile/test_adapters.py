"""Misbehaving adapters, in-process (docs/hostile-input.md, rows A1-A13).

Each gives a verdict on the case and nothing escapes ``run_case``; what the
report carries stays bounded and valid JSON. The process-level rows (exit,
leaked threads, printing) are in test_adapters_cli.py.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.hostile.cassettes import case_text, long_conversation, write_case
from tests.hostile.cli import ADAPTERS
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.collect import MAX_MESSAGE_CHARS
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.session import Selection, run_corpus
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.results.document import results_document

CORPUS = load_corpus(bundled_corpus_root())
CASE = CORPUS["single-tool/weather-openai"]
STREAM_CASE = CORPUS["streaming/parallel-anthropic"]


def _verdicts(name: str, case_id: str = CASE.id, timeout: float = 10.0) -> list[Verdict]:
    adapter = load_adapter(f"{ADAPTERS}:{name}")
    return run_case(CORPUS[case_id], adapter, RunOptions(timeout=timeout, corpus=CORPUS))


def _judged(verdicts: list[Verdict]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """What was judged, without the adapter's name."""
    return [(v.rule_code, v.outcome, v.message, v.directions) for v in verdicts]


def _line_of(statement: str) -> int:
    """The line of tests/hostile/adapters.py that holds ``statement`` (once)."""
    lines = (Path(__file__).parent / "adapters.py").read_text(encoding="utf-8").splitlines()
    [number] = [n for n, text in enumerate(lines, 1) if text.strip() == statement]
    return number


def _only_error(verdicts: list[Verdict]) -> Verdict:
    assert [v.outcome for v in verdicts] == ["error"], [(v.rule_code, v.outcome) for v in verdicts]
    assert len(verdicts[0].message) <= MAX_MESSAGE_CHARS
    return verdicts[0]


def test_a1_an_adapter_that_raises_gives_an_error_naming_the_exception() -> None:
    verdict = _only_error(_verdicts("Raises"))
    assert verdict.rule_code == "convert"
    # where the adapter raised: its file (from its sys.path entry) and line
    line = _line_of('raise RuntimeError("upstream converter exploded")')
    assert verdict.message == (
        "the adapter raised RuntimeError: upstream converter exploded "
        f"(at tests/hostile/adapters.py:{line} in convert)"
    )


def test_a2_a_five_megabyte_exception_message_is_shortened() -> None:
    verdict = _only_error(_verdicts("RaisesHugeMessage"))
    assert verdict.message.startswith("the adapter raised ValueError: yyyy")
    assert "more characters)" in verdict.message
    assert all(len(f.message) <= MAX_MESSAGE_CHARS for f in verdict.findings)


def test_a3_an_exception_that_cannot_print_still_gives_an_error() -> None:
    verdict = _only_error(_verdicts("RaisesUnprintable"))
    assert verdict.message == (
        "the adapter raised Unprintable: (its message could not be printed) "
        f"(at tests/hostile/adapters.py:{_line_of('raise Unprintable()')} in convert)"
    )


def test_a4_keyboard_interrupt_raised_by_an_adapter_is_its_error() -> None:
    verdict = _only_error(_verdicts("RaisesKeyboardInterrupt"))
    assert "KeyboardInterrupt" in verdict.message


def test_a5_returning_none_is_an_error() -> None:
    assert _only_error(_verdicts("ReturnsNone")).message == "the adapter returned None"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ReturnsSet", "$ is of type set, not a JSON value"),
        ("ReturnsCustomObject", "$ is of type tests.hostile.adapters.Custom, not a JSON value"),
        ("ReturnsBytes", "$ is of type bytes, not a JSON value"),
        ("ReturnsNaN", "$ is nan, which JSON cannot carry"),
        ("ReturnsNaNInside", "$.temperature is nan, which JSON cannot carry"),
        ("ReturnsLock", "$.lock is of type _thread.lock, not a JSON value"),
        ("ReturnsCycle", "$.messages[0] refers back to a container it is inside (a cycle)"),
        ("ReturnsDeepNesting", "is nested more than 500 levels deep"),
    ],
)
def test_a6_output_that_is_not_json_is_an_error_naming_where(name: str, expected: str) -> None:
    verdict = _only_error(_verdicts(name))
    assert verdict.message.startswith("the adapter's output cannot be judged: ")
    assert expected in verdict.message
    assert "docs/adapters.md" in verdict.message


def test_a6_non_json_stream_output_is_an_error_too() -> None:
    verdict = _only_error(_verdicts("ReturnsSet", STREAM_CASE.id))
    assert "$ is of type set" in verdict.message


def test_a7_a_fifty_megabyte_output_is_refused_quickly() -> None:
    started = time.monotonic()
    verdict = _only_error(_verdicts("ReturnsFiftyMegabytes"))
    assert "it is 50.0 MB of JSON, more than the 32.0 MB an output may take" in verdict.message
    assert time.monotonic() - started < 30


def test_a8_a_million_element_list_fails_the_schema_rules_with_a_bounded_report() -> None:
    adapter = load_adapter(f"{ADAPTERS}:ReturnsMillionItems")
    selection = Selection.parse(f"{CASE.id},{STREAM_CASE.id}")
    started = time.monotonic()
    result = run_corpus(CORPUS, adapter, RunOptions(corpus=CORPUS), selection)
    assert time.monotonic() - started < 60
    outcomes = {(v.case_id, v.rule_code): v.outcome for v in result.verdicts}
    assert outcomes[(CASE.id, "schema.request")] == "fail"
    assert outcomes[(CASE.id, "schema.response")] == "fail"
    assert outcomes[(STREAM_CASE.id, "schema.response")] == "fail"
    text = json.dumps(results_document(result), allow_nan=False)
    assert len(text) < 200_000, len(text)


def test_a9_an_adapter_that_empties_its_input_changes_nothing_judged() -> None:
    before = [i.request_json() for i in CASE.interactions]
    mutated = _verdicts("MutatesInput")
    assert [i.request_json() for i in CASE.interactions] == before
    assert _judged(mutated) == _judged(_verdicts("PassThrough"))
    assert {v.outcome for v in mutated} == {"pass"}


def test_a10_changing_the_output_after_returning_it_changes_nothing_judged() -> None:
    later = _verdicts("MutatesOutputLater")
    time.sleep(0.2)  # let the vandal thread run
    assert _judged(later) == _judged(_verdicts("PassThrough"))


def test_a11_a_hanging_adapter_is_stopped_by_the_timeout() -> None:
    started = time.monotonic()
    verdict = _only_error(_verdicts("Hangs", timeout=0.3))
    assert verdict.message == (
        "the adapter timed out: no answer within 0.3 s (raise --timeout if it is slow)"
    )
    assert time.monotonic() - started < 5


def test_a11_the_timeout_is_a_budget_for_all_adapter_calls_of_a_case() -> None:
    # weather-openai needs four calls (two requests, then two responses) of
    # 0.3 s each; 1.05 s covers three of them, not four.
    verdicts = _verdicts("SleepsBriefly", timeout=1.05)
    errors = [v for v in verdicts if v.outcome == "error"]
    assert len(errors) == 1 and "timed out" in errors[0].message
    assert errors[0].findings, "the call over budget is named"
    assert all(" response" in f.where for f in errors[0].findings)  # the requests were answered
    assert any(v.outcome == "pass" for v in verdicts)


def test_a11_judging_time_does_not_count_against_the_adapter(tmp_path: Path) -> None:
    case_id = "single-tool/two-hundred-turns"
    write_case(tmp_path, case_id, case_text(case_id, long_conversation(1000)))
    case = load_corpus(tmp_path)[case_id]
    adapter = load_adapter(f"{ADAPTERS}:PassThrough")
    started = time.monotonic()
    verdicts = run_case(case, adapter, RunOptions(timeout=0.02))
    assert time.monotonic() - started > 0.02  # judging alone takes longer than that
    assert {v.outcome for v in verdicts} == {"pass"}


def test_a12_a_hanging_id_mapping_is_stopped_by_the_timeout() -> None:
    verdicts = _verdicts("HangsInIdMapping", timeout=0.3)
    errors = [v for v in verdicts if v.outcome == "error"]
    assert len(errors) == 1
    assert "the adapter's id_mapping timed out: no answer within 0.3 s" in errors[0].message


def test_a13_sys_exit_in_id_mapping_is_an_error_not_the_end_of_the_run() -> None:
    verdicts = _verdicts("ExitsInIdMapping")
    errors = [v for v in verdicts if v.outcome == "error"]
    assert len(errors) == 1
    assert errors[0].message == (
        "the adapter's id_mapping raised SystemExit: 7 "
        f"(at tests/hostile/adapters.py:{_line_of('sys.exit(7)')} in id_mapping)"
    )
