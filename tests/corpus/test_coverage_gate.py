"""The coverage gate (`make test`): every rule code has a positive and a negative case.

Definitions (docs/corpus-format.md, "Coverage"):
- positive: a non-negative bundled case on which the rule was judged and held
  (lint on its own payloads, the reference adapter's output, or a faithful
  pass-through);
- negative, for a rule with a ``payload`` or ``replay`` scope: a negative
  bundled case naming the code in ``expect.violations`` (the negative-case
  tests check that lint finds exactly those codes);
- negative, for a conversion or round-trip rule: a broken adapter of the
  self-test (tests/selftest) that breaks it. Such a rule compares an adapter's
  output with its source, so no lintable file can break it, and no negative
  case may name it.
"""

from __future__ import annotations

import pytest

from toolwire.conformance.catalogue import RULES, RULES_BY_CODE
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.coverage import (
    NEGATIVE_BY_ADAPTER,
    NEGATIVE_BY_CORPUS,
    CoverageReport,
    corpus_coverage,
    negative_by,
)
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus(bundled_corpus_root())


@pytest.fixture(scope="module")
def report(corpus: Corpus) -> CoverageReport:
    return corpus_coverage(corpus, load_adapter("reference"))


def test_the_bundled_cases_are_all_judged(report: CoverageReport) -> None:
    assert report.notes == ()


def test_every_rule_has_a_positive_case(report: CoverageReport) -> None:
    missing = report.missing_positive
    assert missing == [], (
        f"no bundled case where these rules are judged and hold: {', '.join(missing)} "
        "(add a non-negative case that exercises each; `toolwire corpus list` shows the table)"
    )


def test_every_lintable_rule_has_a_negative_case(report: CoverageReport) -> None:
    missing = report.missing_negative
    if missing and not (bundled_corpus_root() / "negative").is_dir():
        pytest.skip(f"corpus/negative/ is not written yet; rules without one: {', '.join(missing)}")
    assert missing == [], (
        f"no negative case names these payload/replay rules: {', '.join(missing)} "
        "(add a case under corpus/negative/ with expect.violations: [code])"
    )


def test_every_conversion_rule_is_broken_by_an_adapter_of_the_self_test() -> None:
    try:
        from tests.selftest.broken import BROKEN_ADAPTERS
    except ImportError as error:
        pytest.fail(f"the broken-adapter self-test (tests/selftest/broken.py) is missing: {error}")
    broken = {adapter.breaks for adapter in BROKEN_ADAPTERS}
    needed = [rule.code for rule in RULES if negative_by(rule) == NEGATIVE_BY_ADAPTER]
    assert needed, "the catalogue has conversion rules; the split must find them"
    missing = [code for code in needed if code not in broken]
    assert missing == [], f"no broken adapter breaks: {', '.join(missing)}"


def test_negative_cases_name_only_rules_lint_can_trigger(corpus: Corpus) -> None:
    wrong = {
        case.id: code
        for case in corpus
        if case.is_negative
        for code in case.expect.violations
        if code not in RULES_BY_CODE or negative_by(RULES_BY_CODE[code]) != NEGATIVE_BY_CORPUS
    }
    assert wrong == {}, "a conversion rule's negative side is a broken adapter, not a case"


def test_the_split_follows_the_catalogue_scopes() -> None:
    for rule in RULES:
        lintable = bool(rule.scopes & {"payload", "replay"})
        assert negative_by(rule) == (NEGATIVE_BY_CORPUS if lintable else NEGATIVE_BY_ADAPTER)
    # A rule the catalogue judges both on payloads and conversions is lintable.
    assert negative_by(RULES_BY_CODE["fidelity.arguments"]) == NEGATIVE_BY_CORPUS
    assert negative_by(RULES_BY_CODE["fidelity.text"]) == NEGATIVE_BY_ADAPTER
