"""The harness passes what is correct but written differently (tests/selftest/variants.py).

Each variant adapter runs over the bundled corpus. It must rewrite some output
(else the test proves nothing), fail no MUST rule, and warn only where the
reference itself warns.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.selftest.patched_corpus import patched_corpus
from tests.selftest.reach import focused
from tests.selftest.test_broken_adapters import run
from tests.selftest.variants import VARIANTS, VariantAdapter
from tests.selftest.variants_results import VARIANTS_RESULTS
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.verdicts import Verdict


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


@pytest.fixture(scope="module")
def reference_warnings(bundled: Corpus) -> set[tuple[str, str]]:
    return _warnings(run(ReferenceAdapter(), bundled).verdicts)


def _warnings(verdicts: Iterable[Verdict]) -> set[tuple[str, str]]:
    return {(v.case_id, v.rule_code) for v in verdicts if v.outcome == "warn"}


@pytest.mark.parametrize(
    "variant", (*VARIANTS, *VARIANTS_RESULTS), ids=lambda variant: variant.name
)
def test_a_correct_variant_passes_where_the_reference_passes(
    variant: type[VariantAdapter],
    bundled: Corpus,
    reference_warnings: set[tuple[str, str]],
    tmp_path: Path,
) -> None:
    corpus = bundled
    if variant.corpus_patches:
        corpus = patched_corpus(tmp_path / "corpus", variant.corpus_patches)
        reference_warnings = _warnings(run(ReferenceAdapter(), corpus).verdicts)
    adapter = variant()
    # Only what it rewrites can differ from the reference's run (reach.py).
    reached = focused(adapter, corpus)
    result = run(adapter, corpus, only=reached)
    assert adapter.rewritten > 0, f"{variant.name} ({variant.variation}) rewrote nothing"
    failing = [f"{v.item_id}: {v.message}" for v in result.verdicts if v.is_failure]
    assert failing == [], f"{variant.name} ({variant.variation}) failed"
    assert _warnings(result.verdicts) - reference_warnings == set()
    assert result.totals["pass"] >= len(reached)


def _passes(verdicts: Iterable[Verdict], case: str, rule: str) -> bool:
    return any(v.case_id == case and v.rule_code == rule and v.outcome == "pass" for v in verdicts)


def test_the_variants_were_judged_by_the_rules_they_vary(bundled: Corpus) -> None:
    # A pass counts only where the rule looked at what the variant rewrote.
    by_name = {variant.__name__: variant for variant in (*VARIANTS, *VARIANTS_RESULTS)}
    judged = {
        "NoErrorInference": ("error-result/missing-file-openai", "fidelity.error_flag"),
        "EmptyDefsAdded": ("single-tool/weather-openai", "fidelity.tool_definitions"),
        "RequiredEmptyAdded": ("single-tool/weather-anthropic", "fidelity.tool_definitions"),
        "ReformattedArguments": ("single-tool/weather-anthropic", "fidelity.arguments"),
        "SystemAsBlocks": ("mixed-text/text-then-call-openai", "fidelity.text"),
        "GeminiSignatureUrlSafe": (
            "gemini-dev/signature-replay-stream",
            "reasoning.call_signature_lost",
        ),
        "GeminiExplicitIds": ("parallel/two-cities-openai", "pairing.unanswered_call"),
        "RestrictionReordered": (
            "single-tool/tool-choice-validated-names-gemini",
            "fidelity.tool_choice",
        ),
        "StrictFalseSpelledOut": ("single-tool/weather-anthropic", "fidelity.tool_definitions"),
        # Four results out of call order, put into call order: judged, and held.
        "ResultsInCallOrder": ("parallel/results-out-of-order-openai", "ordering.result_order"),
        # A JSON result under Gemini's `output` envelope; a failure marked by
        # the converter's own marker around its text (both rules judge it).
        "GeminiJsonValueEnveloped": ("single-tool/weather-openai", "fidelity.text"),
        "FailureMarkedByOwnMarker": ("error-result/missing-file-anthropic", "fidelity.text"),
    }
    judged_too = {"FailureMarkedByOwnMarker": "fidelity.error_flag"}
    for name, (case, rule) in judged.items():
        result = run(by_name[name](), bundled, only=Corpus(bundled.root, [bundled[case]]))
        assert _passes(result.verdicts, case, rule), f"{name}: {rule} did not pass on {case}"
        if name in judged_too:
            assert _passes(result.verdicts, case, judged_too[name]), name
