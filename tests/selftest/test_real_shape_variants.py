"""Issue 28's Gemini turn reading through a converter, three ways.

Gemini accepts a model turn's calls in consecutive model contents (one call
each) answered by one user content (a real accepted request: pydantic-ai's
``test_cross_provider_capability_replay[...gemini-3-flash-preview]``). A
converter that writes them so is correct: it must fail no MUST and warn only
where the reference warns. The same split with one function response dropped
is still caught (``pairing.unanswered_call``), and the reference passes the
corpus case that holds the shape (``gemini-dev/consecutive-model-contents``).
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_gemini import REQUESTS_TO_GEMINI, function_responses
from tests.selftest.reach import focused
from tests.selftest.test_broken_adapters import flagged_codes, run
from tests.selftest.variants import VariantAdapter
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus

Json = dict[str, Any]
CASE = "gemini-dev/consecutive-model-contents"


def split_model_turns(output: Json) -> int:
    """Give each call of a model content a model content of its own (text and
    other parts stay with the call before them); how many contents it split."""
    split = 0
    contents: list[Json] = []
    for content in output.get("contents") or ():
        parts = content.get("parts") or []
        if content.get("role") != "model" or sum("functionCall" in p for p in parts) < 2:
            contents.append(content)
            continue
        split += 1
        pieces: list[list[Json]] = [[]]
        for part in parts:
            if "functionCall" in part and any("functionCall" in p for p in pieces[-1]):
                pieces.append([])
            pieces[-1].append(part)
        contents += [{**content, "parts": piece} for piece in pieces]
    output["contents"] = contents
    return split


class GeminiCallsInSeparateContents(VariantAdapter):
    variation = (
        "each call of a Gemini model turn in a model content of its own (consecutive model "
        "contents, which the API reads as one turn)"
    )
    varied = REQUESTS_TO_GEMINI

    def vary(self, output: Any, direction: Any) -> Any:
        split_model_turns(output)
        return output


class GeminiSplitAndAnswerDropped(VariantAdapter):
    """Broken: the split, and the last function response of the answering turn dropped."""

    variation = "consecutive model contents, one function response dropped"
    varied = REQUESTS_TO_GEMINI

    def vary(self, output: Any, direction: Any) -> Any:
        if split_model_turns(output):
            answering = [c for c in output["contents"] if len(function_responses(c)) > 1]
            if answering:
                answering[-1]["parts"].remove(function_responses(answering[-1])[-1])
        return output


def _warnings(result: Any) -> set[tuple[str, str]]:
    return {(v.case_id, v.rule_code) for v in result.verdicts if v.outcome == "warn"}


def test_calls_in_consecutive_model_contents_pass_where_the_reference_passes() -> None:
    corpus = load_corpus(bundled_corpus_root())
    adapter = GeminiCallsInSeparateContents()
    reached = focused(adapter, corpus)
    result = run(adapter, corpus, only=reached)
    reference = run(ReferenceAdapter(), corpus, only=reached)
    assert adapter.rewritten > 0
    failing = [f"{v.item_id}: {v.message}" for v in result.verdicts if v.is_failure]
    assert failing == []
    assert _warnings(result) - _warnings(reference) == set()
    judged = {
        (v.case_id, v.rule_code)
        for v in result.verdicts
        if v.outcome == "pass" and v.rule_code.startswith("pairing.")
    }
    assert ("parallel/two-cities-openai", "pairing.unanswered_call") in judged
    assert ("parallel/two-cities-openai", "pairing.orphan_result") in judged


def test_the_split_with_a_response_dropped_is_still_caught() -> None:
    corpus = load_corpus(bundled_corpus_root())
    adapter = GeminiSplitAndAnswerDropped()
    reached = focused(adapter, corpus)
    flagged = flagged_codes(run(adapter, corpus, only=reached).verdicts)
    assert flagged["pairing.unanswered_call"].get("parallel/two-cities-openai") == "fail"


def test_the_reference_passes_the_case_that_holds_the_shape() -> None:
    corpus = load_corpus(bundled_corpus_root())
    only = Corpus(corpus.root, [corpus[CASE]])
    result = run(ReferenceAdapter(), corpus, only=only)
    assert [v.item_id for v in result.verdicts if v.is_failure] == []
    assert {v.rule_code for v in result.verdicts if v.outcome == "pass"} >= {
        "pairing.orphan_result",
        "pairing.unanswered_call",
    }
