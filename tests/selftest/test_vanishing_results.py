"""Tool results that vanish, turn into text, or are dropped from the last turn.

The broken adapters of ``broken_vanish`` are run by test_broken_adapters (their
code, and no other MUST rule); here: what each shows in detail, that the rules
whose subject vanished give no verdict instead of a pass, that correct but
different converters pass, and that the reference passes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, blocks
from tests.selftest.broken_vanish import (
    FinalResultsDropped,
    ResultsFlattenedToText,
    ResultsVanishProxy,
)
from tests.selftest.reach import focused
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import run_corpus
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.model import PayloadKind

UNANSWERED = "pairing.unanswered_call"
ERROR_CASES = ("error-result/missing-file-openai", "error-result/several-error-rounds-openai")


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


def run(adapter: Any, corpus: Corpus, whole: bool = False) -> tuple[Verdict, ...]:
    # A broken adapter is judged on what its damage reaches (reach.py),
    # unless the test needs its undamaged directions too.
    narrow = isinstance(adapter, BrokenAdapter) and not whole
    judged = focused(adapter, corpus) if narrow else corpus
    loaded = check_adapter(adapter, adapter.name)
    return run_corpus(judged, loaded, RunOptions(corpus=corpus)).verdicts


def verdict(verdicts: Iterable[Verdict], case: str, rule: str) -> Verdict | None:
    return next((v for v in verdicts if v.case_id == case and v.rule_code == rule), None)


def test_a_proxy_that_drops_every_result_gets_no_error_flag_verdict_from_it(
    bundled: Corpus,
) -> None:
    # Before issue 14, fidelity.error_flag passed here: no result was left to compare.
    verdicts = run(ResultsVanishProxy(), bundled, whole=True)
    proxy = "request openai-chat->openai-chat"
    for case in ERROR_CASES:
        flag = verdict(verdicts, case, "fidelity.error_flag")
        assert flag is not None  # the undamaged directions still judge it
        assert not any(d.startswith(proxy) for d in flag.directions), flag.directions
        unanswered = verdict(verdicts, case, UNANSWERED)
        assert unanswered is not None and unanswered.outcome == "fail"
        assert any(d.startswith(proxy) for d in unanswered.directions)


# Rules whose subject is a tool result: with every result gone, none may judge.
RESULT_RULES = (
    "pairing.orphan_result",
    "pairing.duplicate_result",
    "ordering.result_not_adjacent",
    "ordering.result_order",
    "fidelity.error_flag",
)


def test_no_result_rule_judges_the_output_of_a_proxy_that_dropped_every_result(
    bundled: Corpus,
) -> None:
    proxy = "request openai-chat->openai-chat"
    judged = [
        (v.case_id, v.rule_code)
        for v in run(ResultsVanishProxy(), bundled)
        if v.rule_code in RESULT_RULES and any(d.startswith(proxy) for d in v.directions)
    ]
    assert judged == []
    # The same rules do judge a faithful proxy's output (the assertion above can fail).
    faithful = run(ToolContentAsParts(), bundled)
    for rule in RESULT_RULES:
        assert any(
            v.rule_code == rule and any(d.startswith(proxy) for d in v.directions) for v in faithful
        ), rule


def test_results_dropped_from_the_last_turn_are_found_through_the_source(
    bundled: Corpus,
) -> None:
    verdicts = run(FinalResultsDropped(), bundled)
    for case in FinalResultsDropped.shows_on:
        found = verdict(verdicts, case, UNANSWERED)
        assert found is not None and found.outcome == "fail", case
        assert "was answered in the source" in found.message
        assert found.findings[0].where.startswith("request openai-chat->anthropic-messages")
    # The error flag of a dropped result is not judged: no pass from that direction.
    flag = verdict(verdicts, "error-result/missing-file-openai", "fidelity.error_flag")
    assert flag is None or not any(
        d.startswith("request openai-chat->anthropic-messages, interaction 2")
        for d in flag.directions
    )


def test_results_flattened_into_text_fail_a_must_rule(bundled: Corpus) -> None:
    verdicts = run(ResultsFlattenedToText(), bundled)
    for case in ResultsFlattenedToText.shows_on:
        found = verdict(verdicts, case, UNANSWERED)
        assert found is not None and found.outcome == "fail" and found.level == "MUST", case


# --- correct but different: these pass ------------------------------------------


class ResultsAsTextBlocks(ReferenceAdapter):
    """Writes every anthropic tool_result content as a list of text blocks."""

    name = "results-as-text-blocks"

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        output = super().convert(payload, kind, source, target, request)
        if kind == "request" and target == ANTHROPIC:
            for message in output["messages"]:
                for block in blocks(message):
                    inner = block.get("content")
                    if block.get("type") == "tool_result" and isinstance(inner, str) and inner:
                        block["content"] = [{"type": "text", "text": inner}]
        return output


class ToolContentAsParts(ReferenceAdapter):
    """An openai-chat proxy that forwards tool messages with content as text parts."""

    name = "tool-content-as-parts"

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return super().directions | {("request", OPENAI, OPENAI)}

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        if (kind, source, target) != ("request", OPENAI, OPENAI):
            return super().convert(payload, kind, source, target, request)
        output = {**payload, "messages": [dict(m) for m in payload["messages"]]}
        for message in output["messages"]:
            content = message.get("content")
            if message.get("role") == "tool" and isinstance(content, str) and content:
                message["content"] = [{"type": "text", "text": content}]
        return output

    def id_mapping(
        self, payload: Any, kind: PayloadKind, source: str, target: str
    ) -> dict[str, str]:
        if source == target:
            return {}
        return super().id_mapping(payload, kind, source, target)


@pytest.mark.parametrize(
    "adapter", [ResultsAsTextBlocks(), ToolContentAsParts(), ReferenceAdapter()]
)
def test_correct_converters_pass_where_the_broken_ones_fail(adapter: Any, bundled: Corpus) -> None:
    verdicts = run(adapter, bundled)
    failing = [v.item_id for v in verdicts if v.is_failure]
    assert failing == []
    cases = (*FinalResultsDropped.shows_on, *ResultsVanishProxy.shows_on)
    for case in cases:
        found = verdict(verdicts, case, UNANSWERED)
        assert found is not None and found.outcome == "pass", case
