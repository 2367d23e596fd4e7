"""A SHOULD verdict never says "must" (docs/levels.md), checked on real runs.

tests/conformance/test_levels.py reads the message text written in the checks;
this runs the broken adapters whose rule is a SHOULD under the default
profiles, so messages built at run time are read too.
"""

from __future__ import annotations

import re

import pytest

from tests.selftest.broken_base import BrokenAdapter
from tests.selftest.broken_reasoning import ReasoningAndThinkingDropped
from tests.selftest.broken_requests import (
    AssistantSplit,
    CallsReversed,
    ErrorFlagLost,
    IdsRewritten,
    ResultsReordered,
    ResultsSplitForMergingTarget,
)
from tests.selftest.broken_responses import UsageDropped
from tests.selftest.reach import focused
from tests.selftest.test_broken_adapters import run
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus

MUST_WORD = re.compile(r"\bmust\b", re.IGNORECASE)
SHOULD_DEFECTS = (
    AssistantSplit,
    CallsReversed,
    ErrorFlagLost,
    IdsRewritten,
    ResultsReordered,
    ResultsSplitForMergingTarget,
    ReasoningAndThinkingDropped,
    UsageDropped,
)


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


@pytest.mark.parametrize("adapter", SHOULD_DEFECTS, ids=lambda adapter: adapter.name)
def test_a_warning_does_not_say_must(adapter: type[BrokenAdapter], bundled: Corpus) -> None:
    broken = adapter()
    # What it reaches (reach.py), under the profiles it names.
    result = run(broken, bundled, adapter.profiles, only=focused(broken, bundled))
    warnings = [v for v in result.verdicts if v.outcome == "warn"]
    assert any(v.rule_code == adapter.breaks for v in warnings), "the defect gave no warning"
    saying_must = [
        f"{v.item_id}: {text}"
        for v in warnings
        for text in (v.message, *(f.message for f in v.findings))
        if MUST_WORD.search(text)
    ]
    assert saying_must == []
