"""A Gemini MALFORMED_FUNCTION_CALL answer converted to ``choices: []`` (what
any-llm does): ``fidelity.stop_reason`` gives that response no verdict, since
the finish reason has no documented openai-chat equivalent, and judges the
case's other response as usual. The empty list is no schema violation. The
broken adapter that drops an empty choice whose stop reason does have an
equivalent is ``broken_choices.StopLostWithEmptyChoice``, run with the others by
test_broken_adapters.py."""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_choices import StopLostWithEmptyChoice
from tests.selftest.test_broken_adapters import flagged_codes, run
from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.model import PayloadKind

CASE = "single-tool/malformed-function-call-gemini"
MALFORMED_RESPONSE = "response gemini->openai-chat, interaction 1 response"
EMPTY_REPLY = "edge/empty-reply-after-result-anthropic"


class EmptyChoicesForUnmapped(ReferenceAdapter):
    """The reference, except that a Gemini answer it declines for its finish
    reason becomes an OpenAI response with no choice, as any-llm writes it."""

    name = "empty-choices-for-unmapped"

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        if kind == "response" and source == "openai-chat" and payload.get("choices") == []:
            raise UnsupportedConversion("no choice to convert back")  # the round trip
        try:
            return super().convert(payload, kind, source, target, request)
        except UnsupportedConversion:
            if (kind, source, target) != ("response", "gemini", "openai-chat"):
                raise
        usage = payload.get("usageMetadata") or {}
        return {
            "id": payload.get("responseId", "chatcmpl-1"),
            "object": "chat.completion",
            "created": 1750000000,
            "model": payload.get("modelVersion", "gemini"),
            "choices": [],
            "usage": {
                "prompt_tokens": usage.get("promptTokenCount", 0),
                "completion_tokens": 0,
                "total_tokens": usage.get("totalTokenCount", 0),
            },
        }


def _only(*case_ids: str) -> Corpus:
    bundled = load_corpus(bundled_corpus_root())
    return Corpus(bundled.root, [bundled[c] for c in case_ids])


def test_an_unmapped_finish_reason_dropped_with_its_choice_gets_no_verdict() -> None:
    reference = run(ReferenceAdapter(), _only(CASE))
    declined = [v for v in reference.verdicts if v.outcome == "unsupported"]
    assert declined, "the reference declines the MALFORMED_FUNCTION_CALL answer"

    result = run(EmptyChoicesForUnmapped(), _only(CASE))
    assert [v.item_id for v in result.verdicts if v.is_failure] == []
    assert flagged_codes(result.verdicts) == {}
    stop = [v for v in result.verdicts if v.rule_code == "fidelity.stop_reason"]
    # Judged on the second (well-formed) answer only; never on the empty one.
    assert [v.outcome for v in stop] == ["pass"]
    assert MALFORMED_RESPONSE not in stop[0].directions
    assert any("interaction 2 response" in d for d in stop[0].directions)
    schema = [v for v in result.verdicts if v.rule_code == "schema.response"]
    assert [v.outcome for v in schema] == ["pass"]
    assert MALFORMED_RESPONSE in schema[0].directions  # the empty list was read, and holds


def test_a_documented_stop_reason_dropped_with_its_choice_fails() -> None:
    result = run(StopLostWithEmptyChoice(), _only(EMPTY_REPLY))
    assert flagged_codes(result.verdicts) == {"fidelity.stop_reason": {EMPTY_REPLY: "fail"}}
    assert [
        v.item_id for v in run(ReferenceAdapter(), _only(EMPTY_REPLY)).verdicts if v.is_failure
    ] == []
