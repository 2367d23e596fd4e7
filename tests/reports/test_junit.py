"""JUnit XML, parsed back with junitparser as a CI viewer would read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from junitparser import Error, Failure, JUnitXml, Skipped

from tests.reports.factory import document, mixed_document, verdict
from toolwire.harness.reports.junit import render_junit, xml_safe
from toolwire.harness.rule_links import rule_url


def _parse(text: str, tmp_path: Path) -> JUnitXml:
    path = tmp_path / "junit.xml"
    path.write_text(text, encoding="utf-8")
    return JUnitXml.fromfile(str(path))


def _cases(xml: JUnitXml) -> dict[tuple[str, str], Any]:
    return {(case.classname, case.name): case for suite in xml for case in suite}


def test_one_testcase_per_case_and_rule_with_outcomes_mapped(tmp_path: Path) -> None:
    source = mixed_document()
    xml = _parse(render_junit(source), tmp_path)
    (suite,) = list(xml)
    assert suite.name == "toolwire demo 1.0"
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (8, 3, 1, 2)
    cases = _cases(xml)
    assert set(cases) == {(v["case"], v["rule"]) for v in source["verdicts"]}

    passed = cases[("single/weather", "pairing.id_changed")]
    assert passed.is_passed
    (failure,) = cases[("single/weather", "fidelity.arguments")].result
    assert isinstance(failure, Failure)
    assert failure.message == (
        f"fidelity.arguments: argument city changed (rule page: {rule_url('fidelity.arguments')})"
    )
    assert failure.type == "fidelity.arguments"
    assert "expected 'Paris', got 'Pari'" in failure.text
    (error,) = cases[("stream/one", "convert")].result
    assert isinstance(error, Error)
    assert error.message == "convert: upstream converter exploded"
    (skipped,) = cases[("parallel/two", "fidelity.arguments")].result
    assert isinstance(skipped, Skipped)
    assert skipped.message == "xfail (fidelity.arguments): known since 1.2"
    (stale,) = cases[("single/weather", "ordering.result_order")].result
    assert isinstance(stale, Failure) and stale.type == "stale-baseline"
    warned = cases[("parallel/two", "ordering.result_order")]
    assert warned.is_passed
    assert "results reordered" in warned.system_out


def test_properties_and_duration_come_from_the_header(tmp_path: Path) -> None:
    xml = _parse(render_junit(mixed_document()), tmp_path)
    (suite,) = list(xml)
    properties = {p.name: p.value for p in suite.properties()}
    assert properties["adapter.version"] == "1.0"
    assert properties["corpus.version"] == "c0ffee000001"
    assert properties["rules_version"] == "12de69784a0b"
    assert suite.time == 2.5
    assert suite.timestamp == "2026-01-02T03:04:05.000000+00:00"


def test_markup_and_forbidden_characters_survive(tmp_path: Path) -> None:
    nasty = 'a <b> & "quoted" ]]> \x00 bell\x07 \ud800 end'
    xml = _parse(render_junit(document([verdict("c/1", "pairing.x", "fail", nasty)])), tmp_path)
    (failure,) = _cases(xml)[("c/1", "pairing.x")].result
    assert failure.message == 'pairing.x: a <b> & "quoted" ]]> \\x00 bell\\x07 \\ud800 end'
    assert "]]>" in failure.text


def test_xml_safe_leaves_ordinary_text_alone() -> None:
    assert xml_safe("tab\tline\nümlaut 漢字 🙂") == "tab\tline\nümlaut 漢字 🙂"
    assert xml_safe("\x1b[31m") == "\\x1b[31m"


def test_a_real_failing_run_round_trips(
    real_results: dict[str, Path], real_documents: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    source = real_documents["renames-ids"]
    xml = _parse(render_junit(source), tmp_path)
    cases = _cases(xml)
    assert len(cases) == len(source["verdicts"])
    failing = {(v["case"], v["rule"]) for v in source["verdicts"] if v["outcome"] == "fail"}
    failed = {key for key, case in cases.items() if not case.is_passed and not case.is_skipped}
    assert failed == failing
    assert ("parallel/two-cities-openai", "pairing.orphan_result") in failed
    (suite,) = list(xml)
    assert suite.failures == source["totals"]["fail"]


def test_a_broken_run_says_so(real_documents: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    text = render_junit(real_documents["raises"])
    xml = _parse(text, tmp_path)
    (suite,) = list(xml)
    assert suite.errors > 0
    assert "BROKEN: the adapter failed on every case" in text
