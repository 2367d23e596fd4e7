"""ordering.result_order shown three ways (issue 27: the rule judges the
converter's change of order, not the order a client chose):

* the broken adapter ``ResultsReordered`` reverses results the source sent in
  call order: caught, a warning;
* the variant ``ResultsInCallOrder`` puts a client's out-of-order results
  back into call order: held;
* the reference keeps a client's out-of-order results as they came
  (``parallel/results-out-of-order-*``): held, no warning.
"""

from __future__ import annotations

import pytest

from tests.selftest.broken_requests import ResultsReordered
from tests.selftest.test_broken_adapters import run
from tests.selftest.variants import ResultsInCallOrder
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.verdicts import Verdict

CODE = "ordering.result_order"
OUT_OF_ORDER = tuple(
    f"parallel/results-out-of-order-{dialect}"
    for dialect in ("openai", "anthropic", "gemini", "responses")
)


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


def _verdict(adapter: object, bundled: Corpus, case: str) -> Verdict:
    result = run(adapter, bundled, only=Corpus(bundled.root, [bundled[case]]))
    (found,) = [v for v in result.verdicts if v.rule_code == CODE]
    return found


def test_a_converter_that_reorders_results_in_call_order_is_warned(bundled: Corpus) -> None:
    verdict = _verdict(ResultsReordered(), bundled, "parallel/two-cities-openai")
    assert (verdict.outcome, verdict.level) == ("warn", "SHOULD")
    assert "in the source and" in verdict.message
    assert "must" not in verdict.message.lower()


def test_a_converter_that_puts_results_back_in_call_order_passes(bundled: Corpus) -> None:
    adapter = ResultsInCallOrder()
    verdict = _verdict(adapter, bundled, "parallel/results-out-of-order-openai")
    assert adapter.rewritten > 0  # it did change the client's order
    assert verdict.outcome == "pass"


@pytest.mark.parametrize("case", OUT_OF_ORDER)
def test_the_reference_keeping_a_clients_order_passes(bundled: Corpus, case: str) -> None:
    assert _verdict(ReferenceAdapter(), bundled, case).outcome == "pass"
