"""No vacuous pass: a pass verdict means the case really held what the rule judges.

Two sides of one property (issue 14):

* over the bundled corpus, every pass verdict of the reference adapter is on
  a case that exercises its rule (``exercise.EXERCISES``, predicates written
  without the checks' code); a check that answers ``[]`` where it should
  answer ``None`` gives a pass on a case without the subject, and fails here;
* every check of the registry gives no verdict on payloads that lack its
  subject (a plain chat: no tools, no results, no reasoning, no stream).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from tests.conformance.exercise import EXERCISES, CaseView, view
from toolwire.conformance.catalogue import RULE_CODES
from toolwire.conformance.context import ConversionUnderTest, Exchange, RoundTripUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.registry import (
    CONVERSION_CHECKS,
    PAYLOAD_CHECKS,
    REPLAY_CHECKS,
    ROUNDTRIP_CHECKS,
)
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine import collect
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import run_corpus
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.payloads import parse_payload


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus(bundled_corpus_root())


def reference_verdicts(corpus: Corpus) -> tuple[Verdict, ...]:
    adapter = check_adapter(ReferenceAdapter(), "reference")
    return run_corpus(corpus, adapter, RunOptions(corpus=corpus)).verdicts


def vacuous_passes(verdicts: Iterable[Verdict], corpus: Corpus) -> dict[str, list[str]]:
    """rule -> the cases where it passed without its subject."""
    views: dict[str, CaseView] = {}
    found: dict[str, list[str]] = {}
    for verdict in verdicts:
        if verdict.outcome != "pass":
            continue
        case = corpus.get(verdict.case_id)
        assert case is not None
        if verdict.case_id not in views:
            views[verdict.case_id] = view(case)
        if not EXERCISES[verdict.rule_code](views[verdict.case_id]):
            found.setdefault(verdict.rule_code, []).append(verdict.case_id)
    return found


def test_every_rule_says_what_exercises_it() -> None:
    assert sorted(EXERCISES) == sorted(RULE_CODES)


def test_every_pass_of_the_reference_is_on_a_case_that_exercises_its_rule(
    corpus: Corpus,
) -> None:
    assert vacuous_passes(reference_verdicts(corpus), corpus) == {}


def test_a_check_that_passes_with_nothing_to_judge_is_caught(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The audit can fail: result_order answering [] instead of None (its state
    # before issue 14) passes single-result cases, and the audit names them.
    def always_judged(conversion: Any) -> list[Finding]:
        return []

    monkeypatch.setitem(CONVERSION_CHECKS, "ordering.result_order", always_judged)
    monkeypatch.setattr(collect, "_plans", {})  # the engine remembers which checks apply
    small = Corpus(corpus.root, [case for case in corpus if case.id.startswith("single-tool/")])
    found = vacuous_passes(reference_verdicts(small), small)
    assert "ordering.result_order" in found
    assert "single-tool/weather-openai" in found["ordering.result_order"]


# --- the checks themselves, on payloads without their subject ---------------------

PLAIN_REQUESTS: Mapping[str, dict[str, Any]] = {
    "openai-chat": {"model": "m", "messages": [{"role": "user", "content": "Hi"}]},
    "deepseek-chat": {"model": "m", "messages": [{"role": "user", "content": "Hi"}]},
    "anthropic-messages": {
        "model": "m",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Hi"}],
    },
}
PLAIN_RESPONSES: Mapping[str, dict[str, Any]] = {
    "openai-chat": {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hello"},
                "finish_reason": "stop",
            }
        ],
    },
    "anthropic-messages": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "Hello"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    },
}
PROFILES = {
    "openai-chat": "openai",
    "deepseek-chat": "deepseek-thinking",
    "anthropic-messages": "anthropic-strict",
}

# Rules whose subject every payload of the kind has (any request has messages
# to alternate and a schema; any response a stop reason; any text is text).
ALWAYS_ON_REQUESTS = {
    "schema.request",
    "ordering.role_alternation",
    "fidelity.empty_content",
    "reasoning.replay_forbidden",  # (only with an assistant message: none here)
    "fidelity.text",
    "fidelity.empty_text_added",  # every anthropic output's text blocks are its subject
}
ALWAYS_ON_RESPONSES = {
    "schema.response",
    "fidelity.text",
    "fidelity.empty_text_added",
    "fidelity.stop_reason",
    "fidelity.stop_reason_content",  # every answer's stop reason is its subject
    "fidelity.usage",
}
# Anthropic requests always carry max_tokens: a request parameter to bring back.
ALWAYS_ON_ROUNDTRIP = {"fidelity.roundtrip"}
# ...and a generation setting (the output-token limit) to carry into the target.
ALWAYS_FROM_ANTHROPIC = {"fidelity.parameters"}


def _plain(dialect: str, kind: str) -> Any:
    raw = PLAIN_REQUESTS[dialect] if kind == "request" else PLAIN_RESPONSES[dialect]
    return parse_payload(dialect, kind, raw, PROFILES[dialect])  # type: ignore[arg-type]


def _verdicts(results: Mapping[str, list[Finding] | None]) -> set[str]:
    return {code for code, found in results.items() if found is not None}


@pytest.mark.parametrize("dialect", sorted(PLAIN_REQUESTS))
def test_payload_checks_give_no_verdict_on_a_plain_request(dialect: str) -> None:
    payload = _plain(dialect, "request")
    judged = _verdicts({code: check(payload) for code, check in PAYLOAD_CHECKS.items()})
    assert judged <= ALWAYS_ON_REQUESTS, judged - ALWAYS_ON_REQUESTS


@pytest.mark.parametrize("dialect", sorted(PLAIN_RESPONSES))
def test_payload_checks_give_no_verdict_on_a_plain_response(dialect: str) -> None:
    payload = _plain(dialect, "response")
    judged = _verdicts({code: check(payload) for code, check in PAYLOAD_CHECKS.items()})
    assert judged <= ALWAYS_ON_RESPONSES, judged - ALWAYS_ON_RESPONSES


@pytest.mark.parametrize(
    ("source", "target"),
    [("openai-chat", "anthropic-messages"), ("anthropic-messages", "openai-chat")],
)
@pytest.mark.parametrize("kind", ["request", "response"])
def test_conversion_and_roundtrip_checks_give_no_verdict_on_a_plain_chat(
    source: str, target: str, kind: str
) -> None:
    before, after = _plain(source, kind), _plain(target, kind)
    conversion = ConversionUnderTest(before, after)
    judged = _verdicts({code: check(conversion) for code, check in CONVERSION_CHECKS.items()})
    always = ALWAYS_ON_REQUESTS if kind == "request" else ALWAYS_ON_RESPONSES
    carried = (
        ALWAYS_FROM_ANTHROPIC if source == "anthropic-messages" and kind == "request" else set()
    )
    assert judged <= always | carried, judged - always - carried
    trip = RoundTripUnderTest(before, before, target)
    judged = _verdicts({code: check(trip) for code, check in ROUNDTRIP_CHECKS.items()})
    extra = ALWAYS_ON_ROUNDTRIP if source == "anthropic-messages" and kind == "request" else set()
    assert judged <= always | extra, judged - always - extra


def test_the_replay_check_gives_no_verdict_on_one_exchange() -> None:
    exchange = Exchange(0, _plain("openai-chat", "request"), _plain("openai-chat", "response"))
    assert {code: check([exchange]) for code, check in REPLAY_CHECKS.items()} == {
        code: None for code in REPLAY_CHECKS
    }


# --- some subject, but not what the rule needs: still no verdict ----------------------

ONE_ROUND = [
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_a",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_a", "content": "18 C"},
]


def _request(dialect: str, messages: list[dict[str, Any]], profile: str) -> Any:
    body: dict[str, Any] = {"model": "m", "messages": messages}
    return parse_payload(dialect, "request", body, profile)


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("pairing.call_id_duplicate", "one call cannot share its id"),
        ("ordering.system_placement", "no system prompt to misplace"),
    ],
)
def test_one_call_and_one_result_leave_these_rules_nothing_to_judge(code: str, why: str) -> None:
    payload = _request("openai-chat", ONE_ROUND, "openai")
    assert PAYLOAD_CHECKS[code](payload) is None, why


def test_one_result_leaves_result_order_nothing_to_judge() -> None:
    payload = _request("openai-chat", ONE_ROUND, "openai")
    conversion = ConversionUnderTest(source=payload, output=payload)
    assert CONVERSION_CHECKS["ordering.result_order"](conversion) is None, (
        "one result cannot be out of order"
    )


def test_results_under_a_merging_profile_cannot_be_misplaced() -> None:
    messages = [
        ONE_ROUND[0],
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_a", "name": "f", "input": {}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a"}]},
    ]
    body = {"model": "m", "max_tokens": 10, "messages": messages}
    merging = parse_payload("anthropic-messages", "request", body, "anthropic-merging")
    strict = parse_payload("anthropic-messages", "request", body, "anthropic-strict")
    check = PAYLOAD_CHECKS["ordering.result_not_adjacent"]
    assert check(merging) is None  # the API merges the window: nothing to misplace
    assert check(strict) == []  # judged, and right


def _anthropic_round(result: dict[str, Any] | None) -> Any:
    messages: list[dict[str, Any]] = [
        ONE_ROUND[0],
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "call_a", "name": "f", "input": {}}],
        },
    ]
    if result is not None:
        block = {"type": "tool_result", "tool_use_id": "call_a", **result}
        messages.append({"role": "user", "content": [block]})
    body = {"model": "m", "max_tokens": 10, "messages": messages}
    return parse_payload("anthropic-messages", "request", body, "anthropic")


def test_the_error_flag_is_judged_only_where_a_result_failed() -> None:
    check = CONVERSION_CHECKS["fidelity.error_flag"]
    succeeded = _anthropic_round({"content": "18 C"})
    assert check(ConversionUnderTest(succeeded, succeeded)) is None
    failed = _anthropic_round({"content": "no such city", "is_error": True})
    assert check(ConversionUnderTest(failed, failed)) == []  # judged, and kept
    assert check(ConversionUnderTest(failed, succeeded)) != []  # judged, and lost
    # Every result gone from the output: no result to compare, no verdict
    # (pairing.unanswered_call reports the loss).
    assert check(ConversionUnderTest(failed, _anthropic_round(None))) is None
