"""The bundled corpus agrees with itself and with the oracle.

Twins say the same thing in two dialects (as the semantic view reads them),
and every Qwen XML expectation is what the oracle parser extracts.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from toolwire.conformance.readings.semantic import (
    MessageSummary,
    comparable,
    relabel_ids,
    semantic_conversation,
    semantic_message,
)
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml.parser import parse_qwen_xml
from toolwire.harness.payloads import case_payloads

CORPUS = load_corpus(bundled_corpus_root())
TWIN_PAIRS = sorted(
    {tuple(sorted((case.id, twin_id))) for case in CORPUS for twin_id in case.twins.values()}
)
QWEN_CASES = [case for case in CORPUS if case.dialect == "qwen-xml"]


def _same_wording(summaries: list[MessageSummary]) -> list[MessageSummary]:
    """Arguments that are not JSON (a call cut off by the output limit) compare
    as broken: each codec words the decoder's error its own way."""
    return [
        replace(
            summary,
            calls=tuple(
                replace(call, arguments_error=call.arguments_error and "not JSON")
                for call in summary.calls
            ),
        )
        for summary in summaries
    ]


def _summaries(case: Case, kind: str, *dialects: str) -> list[object]:
    summaries: list[object] = []
    for payload in case_payloads(case, kind):  # type: ignore[arg-type]
        if payload.under_test.conversation is not None:
            messages = semantic_conversation(payload.under_test.conversation)
            summaries.append(
                _same_wording(relabel_ids([comparable(m, *dialects) for m in messages]))
            )
        else:
            response = payload.under_test.response
            assert response is not None
            summaries.append(
                _same_wording(relabel_ids([comparable(semantic_message(response), *dialects)]))
            )
    return summaries


def test_the_corpus_has_twin_pairs_to_compare() -> None:
    assert len(TWIN_PAIRS) >= 8


@pytest.mark.parametrize(("left_id", "right_id"), TWIN_PAIRS, ids=["~".join(p) for p in TWIN_PAIRS])
def test_twins_say_the_same_thing(left_id: str, right_id: str) -> None:
    left, right = CORPUS[left_id], CORPUS[right_id]
    dialects = (left.dialect, right.dialect)
    assert left.twins.get(right.dialect) == right.id
    assert right.twins.get(left.dialect) == left.id
    assert len(left.interactions) == len(right.interactions)
    for kind in ("request", "response"):
        assert _summaries(left, kind, *dialects) == _summaries(right, kind, *dialects), kind
    # A stream twin may be a stream on one side only if both stream.
    assert _summaries(left, "stream", *dialects) == _summaries(right, "stream", *dialects)


@pytest.mark.parametrize("case", QWEN_CASES, ids=[case.id for case in QWEN_CASES])
def test_qwen_expectations_are_what_the_oracle_extracts(case: Case) -> None:
    last = case.interactions[-1]
    tools = get_codec("openai-chat").parse_request(last.request_json()).tools
    if last.is_stream():
        transcript = get_codec("openai-chat").parse_stream(last.response_events())
        content = transcript.response.message.text
    else:
        content = last.response_json()["choices"][0]["message"]["content"]
    parsed = parse_qwen_xml(content, tools)
    expected_calls = [(call.name, dict(call.arguments)) for call in (case.expect.tool_calls or ())]
    assert [(call.name, call.arguments) for call in parsed.calls] == expected_calls
    assert parsed.text.strip() == (case.expect.text or "")
    assert sorted({issue.code for issue in parsed.issues}) == sorted(set(case.expect.xml_issues))
