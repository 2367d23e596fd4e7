"""The ordering, fidelity and schema rules over the bundled corpus and the real recordings.

The helpers at the top build payloads the way the engine does
(``toolwire.harness.payloads.parse_payload``) and run every check of these
three families (plus pairing, to show that one defect gives one code); the
other test modules of these families import them.

* Every payload of every non-negative corpus case, and every request and
  response in ``../shared/real-transcripts`` (all accepted by the real APIs),
  passes every payload rule at MUST level under its profile.
* Each twin pair of the corpus (source = case, output = its twin) passes every
  conversion rule; hand-broken copies of the twins fail exactly the rule they
  break.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.support.real_transcripts import PENDING_VERDICTS, load_real_transcripts
from toolwire.conformance import fidelity, ordering, pairing, schema
from toolwire.conformance.catalogue import get_rule, rules_in_family
from toolwire.conformance.context import (
    ConversionUnderTest,
    PayloadUnderTest,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Conversation, PayloadKind, ToolDef
from toolwire.harness.payloads import case_payloads, events_to_wire, parse_payload
from toolwire.harness.sse import parse_sse

FAMILIES = ("ordering", "fidelity", "schema")
MODULES = {"ordering": ordering, "fidelity": fidelity, "schema": schema}
PAYLOAD_CHECKS = {
    **pairing.PAYLOAD_CHECKS,
    **ordering.PAYLOAD_CHECKS,
    **fidelity.PAYLOAD_CHECKS,
    **schema.PAYLOAD_CHECKS,
}
CONVERSION_CHECKS = {
    **pairing.CONVERSION_CHECKS,
    **ordering.CONVERSION_CHECKS,
    **fidelity.CONVERSION_CHECKS,
}
ROUNDTRIP_CHECKS = {**ordering.ROUNDTRIP_CHECKS, **fidelity.ROUNDTRIP_CHECKS}
CORPUS = load_corpus(bundled_corpus_root())

# --- helpers shared by the tests of these families ---------------------------


def payload(
    dialect: str,
    kind: PayloadKind,
    raw: Any,
    profile: str | None = None,
    tools: tuple[ToolDef, ...] | None = None,
) -> PayloadUnderTest:
    return parse_payload(dialect, kind, raw, profile or DEFAULT_PROFILE[dialect], tools)


def anthropic_request(messages: list[Any], profile: str = "anthropic", **top: Any) -> Any:
    raw = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages, **top}
    return payload("anthropic-messages", "request", raw, profile)


def openai_request(messages: list[Any], dialect: str = "openai-chat", **top: Any) -> Any:
    return payload(dialect, "request", {"model": "gpt-4.1", "messages": messages, **top})


def anthropic_response(
    content: list[Any],
    stop_reason: str | None = "end_turn",
    usage: dict[str, Any] | None = None,
    tools: tuple[ToolDef, ...] | None = None,
) -> PayloadUnderTest:
    raw = {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage if usage is not None else {"input_tokens": 10, "output_tokens": 5},
    }
    return payload("anthropic-messages", "response", raw, tools=tools)


def openai_response(
    message: dict[str, Any],
    finish_reason: str | None = "stop",
    usage: dict[str, Any] | None = None,
    dialect: str = "openai-chat",
    omit_usage: bool = False,
) -> PayloadUnderTest:
    choice = {
        "index": 0,
        "message": {"role": "assistant", **message},
        "logprobs": None,
        "finish_reason": finish_reason,
    }
    raw: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1750000000,
        "model": "gpt-4.1",
        "choices": [choice],
    }
    if not omit_usage:
        raw["usage"] = usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    return payload(dialect, "response", raw)


def findings_by_code(
    target: Any, checks: Mapping[str, Callable[[Any], list[Finding] | None]]
) -> dict[str, list[Finding]]:
    """Every check's non-empty findings, by code."""
    found = {}
    for code, check in checks.items():
        result = check(target)
        if result:
            found[code] = result
    return found


def must_codes(target: PayloadUnderTest) -> set[str]:
    """The payload codes that fail at MUST level under the payload's profile."""
    return {
        code
        for code in findings_by_code(target, PAYLOAD_CHECKS)
        if get_rule(code).applies_to_dialect(target.dialect)
        and get_rule(code).level_for(target.profile) == "MUST"
    }


def payload_codes(target: PayloadUnderTest) -> set[str]:
    return set(findings_by_code(target, PAYLOAD_CHECKS))


def conversion_codes(source: PayloadUnderTest, output: PayloadUnderTest, **kw: Any) -> set[str]:
    return set(findings_by_code(ConversionUnderTest(source, output, **kw), CONVERSION_CHECKS))


def roundtrip_codes(original: PayloadUnderTest, returned: PayloadUnderTest, via: str) -> set[str]:
    return set(findings_by_code(RoundTripUnderTest(original, returned, via), ROUNDTRIP_CHECKS))


def only(found: list[Finding] | None) -> Finding:
    assert found is not None and len(found) == 1, found
    return found[0]


# --- the wiring names every scope the catalogue lists ------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_every_scope_of_every_rule_has_exactly_one_check(family: str) -> None:
    module = MODULES[family]
    tables = {
        "payload": module.PAYLOAD_CHECKS,
        "conversion": module.CONVERSION_CHECKS,
        "roundtrip": module.ROUNDTRIP_CHECKS,
    }
    rules = rules_in_family(family)
    for rule in rules:
        for scope, table in tables.items():
            assert (rule.code in table) == (scope in rule.scopes), (rule.code, scope)
    named = {code for table in tables.values() for code in table}
    assert named == {rule.code for rule in rules}


# --- the corpus --------------------------------------------------------------

POSITIVE_CASES = [case for case in CORPUS if not case.is_negative]


@pytest.mark.parametrize("case", POSITIVE_CASES, ids=[c.id for c in POSITIVE_CASES])
def test_corpus_payloads_pass_every_payload_rule_at_must_level(case: Any) -> None:
    judged = 0
    for kind in case.payload_kinds:
        for source in case_payloads(case, kind):
            assert must_codes(source.under_test) == set(), (source.label, kind)
            judged += 1
    assert judged >= 2


NEGATIVE_CASES = [case for case in CORPUS if case.is_negative]
OUR_CODES = {rule.code for family in FAMILIES for rule in rules_in_family(family)}


def _negative_payloads(case: Any) -> list[PayloadUnderTest]:
    """Every payload of a negative case; one the codec cannot read (a schema.*
    case) gets a stand-in parse, for the schema rules judge the raw payload."""
    found = []
    for interaction in case.interactions:
        raws: list[tuple[PayloadKind, Any]] = [("request", interaction.request_json())]
        if interaction.is_success() and interaction.is_stream():
            raws.append(("stream", events_to_wire(interaction.response_events())))
        elif interaction.is_success():
            raws.append(("response", interaction.response_json()))
        for kind, raw in raws:
            try:
                found.append(parse_payload(case.dialect, kind, raw, case.profile))
            except WireFormatError:
                stand_in = Conversation(dialect=case.dialect, turns=())
                found.append(PayloadUnderTest(case.dialect, kind, case.profile, raw, stand_in))
    return found


@pytest.mark.parametrize("case", NEGATIVE_CASES, ids=[c.id for c in NEGATIVE_CASES])
def test_a_negative_case_triggers_exactly_its_codes_of_these_families(case: Any) -> None:
    expected = set(case.expect.violations) & OUR_CODES
    found: set[str] = set()
    for target in _negative_payloads(case):
        found |= payload_codes(target) & OUR_CODES
    assert found == expected


def test_the_corpus_exercises_every_payload_rule_of_these_families() -> None:
    applied: set[str] = set()
    for case in POSITIVE_CASES:
        for kind in case.payload_kinds:
            for source in case_payloads(case, kind):
                for family in FAMILIES:
                    for code, check in MODULES[family].PAYLOAD_CHECKS.items():
                        if check(source.under_test) is not None:
                            applied.add(code)
    wanted = {code for family in FAMILIES for code in MODULES[family].PAYLOAD_CHECKS}
    # fidelity.empty_content and the anthropic-only rules need anthropic requests:
    # the corpus has them, so every rule must have been applied somewhere.
    assert applied == wanted


# --- the real recordings -----------------------------------------------------


def _real_payloads() -> list[tuple[str, PayloadUnderTest]]:
    found = []
    for record in load_real_transcripts():
        if record.request_body is not None:  # None: the capture kept only the response
            request = payload(record.dialect, "request", record.request_body)
            found.append((f"{record.name} request", request))
        if record.status_code != 200:
            continue
        if record.kind == "stream":
            events = events_to_wire(parse_sse(record.sse_text()))
            found.append((f"{record.name} stream", payload(record.dialect, "stream", events, None)))
        else:
            found.append(
                (
                    f"{record.name} response",
                    payload(record.dialect, "response", record.response_body),
                )
            )
    return found


def test_real_recordings_pass_every_payload_rule_at_must_level() -> None:
    judged = _real_payloads()
    failures = {label: must_codes(p) for label, p in judged if must_codes(p)}
    pending = {  # known false verdicts, each with its reason in PENDING_VERDICTS
        f"{name} request": set(codes) for name, (_, codes) in PENDING_VERDICTS.items()
    }
    assert {k: v for k, v in failures.items() if pending.get(k) != v} == {}
    assert len(judged) > 100  # 85 requests and their responses at the time of writing


def test_real_recordings_pass_the_anthropic_rules_even_under_the_strict_profile() -> None:
    # Anthropic's own API accepted them without merging anything: none splits
    # results, breaks alternation or puts a system message in `messages`.
    strict = [
        payload("anthropic-messages", p.kind, p.raw, "anthropic-strict")
        for _, p in _real_payloads()
        if p.dialect == "anthropic-messages" and p.kind == "request"
    ]
    assert len(strict) >= 30
    assert [must_codes(p) for p in strict if must_codes(p)] == []


# --- twins: a faithful conversion passes, a broken one fails -----------------

TWIN_PAIRS = [(case, CORPUS[twin]) for case in CORPUS for twin in case.twins.values()]
# Each twin is its provider's own recording or documentation: token counts come
# from each provider's tokenizer and ids from each provider's generator, so a
# twin's usage and ids are not what a converter would write; each client set
# its own generation settings (Anthropic's require max_tokens, others set none).
NOT_JUDGED_ON_TWINS = {"fidelity.usage", "pairing.id_changed", "fidelity.parameters"}
# Dialects whose messages keep text between and after calls in place.
ORDER_KEEPING = {"anthropic-messages", "openai-responses"}


def _pairs(source_case: Any, twin_case: Any) -> list[tuple[PayloadUnderTest, PayloadUnderTest]]:
    pairs = []
    for kind in source_case.payload_kinds:
        twins = {p.interaction: p for p in case_payloads(twin_case, kind)}
        for source in case_payloads(source_case, kind):
            if source.interaction in twins:
                pairs.append((source.under_test, twins[source.interaction].under_test))
    return pairs


@pytest.mark.parametrize(
    ("source_case", "twin_case"), TWIN_PAIRS, ids=[f"{a.id}->{b.id}" for a, b in TWIN_PAIRS]
)
def test_a_twin_is_a_faithful_conversion_of_its_case(source_case: Any, twin_case: Any) -> None:
    pairs = _pairs(source_case, twin_case)
    assert pairs
    for source, output in pairs:
        not_judged = set(NOT_JUDGED_ON_TWINS)
        if (source.dialect != "anthropic-messages" and output.dialect in ORDER_KEEPING) or (
            source.dialect in ("openai-chat", "deepseek-chat") and output.dialect == "gemini"
        ):
            # A twin written natively in anthropic-messages, openai-responses or
            # gemini may place text between or after calls, an order its
            # openai-chat-family source cannot express: it is not what a converter
            # from that source produces (docs/conventions.md, "Several text blocks
            # in openai-chat").
            not_judged.add("ordering.block_order")
        answer = output.response
        # OpenAI's own answer to a forced tool_choice ends with "stop"; a converter
        # from tool_use writes "tool_calls" (the rule's mapping), so such a native
        # twin is not what a converter produces.
        forced_call_answer = (
            answer is not None
            and bool(answer.choices)
            and answer.stop_reason.raw == "stop"
            and bool(answer.message.tool_calls)
        )
        if forced_call_answer:
            not_judged.add("fidelity.stop_reason")
        assert conversion_codes(source, output) - not_judged == set(), source.label


def test_twin_conversions_exercise_every_conversion_rule() -> None:
    applied: set[str] = set()
    for source_case, twin_case in TWIN_PAIRS:
        for source, output in _pairs(source_case, twin_case):
            conversion = ConversionUnderTest(source, output)
            for family in FAMILIES:
                for code, check in MODULES[family].CONVERSION_CHECKS.items():
                    if check(conversion) is not None:
                        applied.add(code)
    wanted = {code for family in FAMILIES for code in MODULES[family].CONVERSION_CHECKS}
    # No corpus case sets tool_choice, so that rule only applies where tools are offered.
    assert applied == wanted


def _twin_raw(case_id: str, kind: PayloadKind, interaction: int) -> Any:
    source = next(p for p in case_payloads(CORPUS[case_id], kind) if p.interaction == interaction)
    return copy.deepcopy(source.raw)


def _source(case_id: str, kind: PayloadKind, interaction: int) -> PayloadUnderTest:
    case = CORPUS[case_id]
    found = next(p for p in case_payloads(case, kind) if p.interaction == interaction)
    return found.under_test


def _broken(dialect: str, kind: PayloadKind, raw: Any, like: PayloadUnderTest) -> PayloadUnderTest:
    return payload(dialect, kind, raw, None, like.tools)


def test_a_twin_with_double_encoded_arguments_fails_fidelity_arguments_only() -> None:
    source = _source("single-tool/weather-anthropic", "response", 0)
    raw = _twin_raw("single-tool/weather-openai", "response", 0)
    function = raw["choices"][0]["message"]["tool_calls"][0]["function"]
    function["arguments"] = json.dumps(function["arguments"])
    output = _broken("openai-chat", "response", raw, source)
    assert conversion_codes(source, output) - NOT_JUDGED_ON_TWINS == set()
    assert payload_codes(output) == {"fidelity.arguments"}


def test_a_twin_that_lost_a_unicode_character_fails_fidelity_arguments() -> None:
    source = _source("parallel/two-cities-openai", "request", 1)
    raw = _twin_raw("parallel/two-cities-anthropic", "request", 1)
    raw["messages"][1]["content"][0]["input"]["city"] = "T\u00f6kyo"
    output = _broken("anthropic-messages", "request", raw, source)
    assert conversion_codes(source, output) - NOT_JUDGED_ON_TWINS == {"fidelity.arguments"}
    assert payload_codes(output) == set()


def test_a_twin_with_results_split_over_two_messages_fails_the_split_rule_only() -> None:
    raw = _twin_raw("parallel/two-cities-anthropic", "request", 1)
    results = raw["messages"][2]["content"]
    raw["messages"][2:3] = [{"role": "user", "content": [r]} for r in results]
    lenient = payload("anthropic-messages", "request", raw, "anthropic-merging")
    default = payload("anthropic-messages", "request", raw, "anthropic")
    strict = payload("anthropic-messages", "request", raw, "anthropic-strict")
    assert payload_codes(lenient) == {"ordering.parallel_results_split"}
    assert must_codes(lenient) == set()  # a SHOULD where the target merges
    assert must_codes(default) == {"ordering.parallel_results_split"}
    assert must_codes(strict) == {"ordering.parallel_results_split"}
    source = _source("parallel/two-cities-openai", "request", 1)
    assert (
        conversion_codes(source, strict) - NOT_JUDGED_ON_TWINS == set()
    )  # the semantic view merges them back


def test_a_twin_whose_finish_reason_is_hard_coded_to_stop_fails_fidelity_stop_reason() -> None:
    source = _source("single-tool/weather-anthropic", "response", 0)
    raw = _twin_raw("single-tool/weather-openai", "response", 0)
    raw["choices"][0]["finish_reason"] = "stop"
    output = _broken("openai-chat", "response", raw, source)
    assert conversion_codes(source, output) - NOT_JUDGED_ON_TWINS == {"fidelity.stop_reason"}


def test_a_twin_that_dropped_the_error_mark_fails_fidelity_error_flag_only() -> None:
    source = _source("error-result/missing-file-anthropic", "request", 1)
    raw = _twin_raw("error-result/missing-file-openai", "request", 1)
    tool_message = raw["messages"][2]
    assert tool_message["role"] == "tool"
    tool_message["content"] = tool_message["content"].removeprefix("Error: ")
    output = _broken("openai-chat", "request", raw, source)
    assert conversion_codes(source, output) - NOT_JUDGED_ON_TWINS == {"fidelity.error_flag"}


def test_a_twin_whose_tool_lost_its_description_fails_fidelity_tool_definitions() -> None:
    source = _source("single-tool/weather-openai", "request", 0)
    raw = _twin_raw("single-tool/weather-anthropic", "request", 0)
    raw["tools"][0]["description"] = ""
    output = _broken("anthropic-messages", "request", raw, source)
    assert conversion_codes(source, output) - NOT_JUDGED_ON_TWINS == {"fidelity.tool_definitions"}


def test_a_twin_that_lost_the_text_before_its_call_fails_fidelity_text_only() -> None:
    source = _source("mixed-text/text-then-call-anthropic", "response", 0)
    raw = _twin_raw("mixed-text/text-then-call-openai", "response", 0)
    raw["choices"][0]["message"]["content"] = None
    output = _broken("openai-chat", "response", raw, source)
    assert conversion_codes(source, output) - NOT_JUDGED_ON_TWINS == {"fidelity.text"}
