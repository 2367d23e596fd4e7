"""reasoning.*: each check fails on a payload that breaks its rule, holds on
one that honours it, and finds no MUST violation in the corpus or in the
requests and responses the real APIs accepted."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.real_transcripts import load_real_transcripts
from toolwire.conformance.catalogue import get_rule
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest, RoundTripUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.conformance.reasoning import CONVERSION_CHECKS, PAYLOAD_CHECKS, ROUNDTRIP_CHECKS
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import Conversation, PayloadKind
from toolwire.harness.sse import parse_sse

CORPUS = load_corpus(bundled_corpus_root())


def corpus_case(case_id: str) -> Case:
    case = CORPUS.get(case_id)
    assert case is not None, case_id
    return case


def codes(found: list[Finding] | None) -> list[str]:
    assert found is not None, "the rule should apply here"
    return [f.code for f in found]


def request(dialect: str, body: dict[str, Any], profile: str | None = None) -> PayloadUnderTest:
    parsed = get_codec(dialect).parse_request(body)
    return PayloadUnderTest(dialect, "request", profile or DEFAULT_PROFILE[dialect], body, parsed)


def response(dialect: str, body: dict[str, Any]) -> PayloadUnderTest:
    parsed = get_codec(dialect).parse_response(body)
    return PayloadUnderTest(dialect, "response", DEFAULT_PROFILE[dialect], body, parsed)


def case_payloads(case: Case) -> Iterator[PayloadUnderTest]:
    """Every request, response and stream of a corpus case, parsed by its codec
    (qwen-xml responses typed by the request's tools)."""
    codec = get_codec(case.dialect)
    for number, interaction in enumerate(case.interactions):
        body = interaction.request_json()
        conversation = codec.parse_request(body)
        assert isinstance(conversation, Conversation)
        yield PayloadUnderTest(
            case.dialect, "request", case.profile, body, conversation, label=f"{number} request"
        )
        if not interaction.is_success():
            continue
        tools = conversation.tools
        typed: Any = codec
        kind: PayloadKind
        if interaction.is_stream():
            events = interaction.response_events()
            parsed = (
                typed.parse_stream(events, tools)
                if case.dialect == "qwen-xml"
                else codec.parse_stream(events)
            )
            raw: Any = events
            kind = "stream"
        else:
            raw = interaction.response_json()
            parsed = (
                typed.parse_response(raw, tools)
                if case.dialect == "qwen-xml"
                else codec.parse_response(raw)
            )
            kind = "response"
        yield PayloadUnderTest(
            case.dialect, kind, case.profile, raw, parsed, tools, label=f"{number} {kind}"
        )


def interaction_payload(case_id: str, number: int, kind: str) -> PayloadUnderTest:
    wanted = f"{number} {kind}"
    return next(p for p in case_payloads(corpus_case(case_id)) if p.label == wanted)


def conversion(source: PayloadUnderTest, output: PayloadUnderTest) -> ConversionUnderTest:
    return ConversionUnderTest(source=source, output=output)


# --- small payloads ----------------------------------------------------------

CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
}


def deepseek_body(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"model": "deepseek-v4-pro", "messages": [{"role": "user", "content": "Hi"}, *messages]}


def assistant(
    reasoning: str | None = "thinking", calls: bool = True, **extra: Any
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": "Let me check.", **extra}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = [copy.deepcopy(CALL)]
    return message


TOOL = {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}


# --- reasoning.replay_missing (payload) ---------------------------------------

replay_missing = PAYLOAD_CHECKS["reasoning.replay_missing"]


def test_replay_missing_holds_when_every_tool_stretch_message_carries_reasoning() -> None:
    body = deepseek_body(assistant(), TOOL, assistant("", calls=False))
    assert codes(replay_missing(request("deepseek-chat", body))) == []


def test_empty_reasoning_content_counts_as_sent_back() -> None:
    # pydantic-ai's real DeepSeek recording: reasoning_content "" on a tool-call turn.
    body = deepseek_body(assistant(""), TOOL)
    assert codes(replay_missing(request("deepseek-chat", body))) == []


def test_replay_missing_fails_on_a_tool_call_turn_without_reasoning() -> None:
    body = deepseek_body(assistant(None), TOOL)
    found = replay_missing(request("deepseek-chat", body))
    assert codes(found) == ["reasoning.replay_missing"]
    assert found is not None
    assert found[0].path == "messages[1]"
    assert "is missing" in found[0].message


def test_null_reasoning_content_is_not_reasoning() -> None:
    message = assistant(None)
    message["reasoning_content"] = None
    found = replay_missing(request("deepseek-chat", deepseek_body(message, TOOL)))
    assert codes(found) == ["reasoning.replay_missing"]
    assert found is not None and "is null" in found[0].message


def test_every_assistant_message_of_the_stretch_needs_it_not_only_the_caller() -> None:
    body = deepseek_body(assistant(), TOOL, assistant(None, calls=False))
    found = replay_missing(request("deepseek-chat", body))
    assert found is not None and [f.path for f in found] == ["messages[3]"]


def test_an_earlier_tool_stretch_still_needs_it_after_a_new_user_message() -> None:
    body = deepseek_body(
        assistant(None),
        TOOL,
        assistant("done", calls=False),
        {"role": "user", "content": "And tomorrow?"},
    )
    found = replay_missing(request("deepseek-chat", body))
    assert found is not None and [f.path for f in found] == ["messages[1]"]


def test_reasoning_may_be_dropped_in_a_stretch_without_tool_calls() -> None:
    body = deepseek_body(
        assistant(None, calls=False),
        {"role": "user", "content": "Thanks"},
    )
    assert replay_missing(request("deepseek-chat", body)) is None
    body = deepseek_body(
        assistant(None, calls=False), {"role": "user", "content": "Now?"}, assistant(), TOOL
    )
    assert codes(replay_missing(request("deepseek-chat", body))) == []


def test_replay_missing_does_not_apply_to_responses() -> None:
    body = {
        "id": "x",
        "object": "chat.completion",
        "model": "deepseek-v4-pro",
        "choices": [{"index": 0, "message": assistant(None), "finish_reason": "tool_calls"}],
    }
    assert replay_missing(response("deepseek-chat", body)) is None


def test_replay_missing_is_out_of_scope_for_the_legacy_reasoner_profile() -> None:
    rule = get_rule("reasoning.replay_missing")
    assert rule.level_for("deepseek-reasoner-legacy") is None
    assert rule.level_for("deepseek-thinking") == "MUST"


# --- reasoning.replay_forbidden -----------------------------------------------

replay_forbidden = PAYLOAD_CHECKS["reasoning.replay_forbidden"]


def test_replay_forbidden_fails_on_reasoning_content_in_the_input() -> None:
    body = deepseek_body(assistant("", calls=False), {"role": "user", "content": "More"})
    found = replay_forbidden(request("deepseek-chat", body, "deepseek-reasoner-legacy"))
    assert codes(found) == ["reasoning.replay_forbidden"]
    assert found is not None and found[0].path == "messages[1].reasoning_content"


def test_replay_forbidden_holds_without_reasoning_content() -> None:
    body = deepseek_body(assistant(None, calls=False), {"role": "user", "content": "More"})
    assert codes(replay_forbidden(request("deepseek-chat", body))) == []
    assert replay_forbidden(request("deepseek-chat", deepseek_body())) is None


# --- reasoning.position -------------------------------------------------------

position = PAYLOAD_CHECKS["reasoning.position"]
THINKING = {"type": "thinking", "thinking": "Let me think.", "signature": "c2lnbmF0dXJl"}
TEXT = {"type": "text", "text": "Checking."}
TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}


def anthropic_body(*content: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": list(content)},
        ],
    }


def anthropic_response(*content: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": list(content),
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 20},
    }


def test_position_holds_when_thinking_opens_the_content() -> None:
    assert (
        codes(position(request("anthropic-messages", anthropic_body(THINKING, TEXT, TOOL_USE))))
        == []
    )


def test_position_fails_when_thinking_follows_text() -> None:
    found = position(request("anthropic-messages", anthropic_body(TEXT, THINKING, TOOL_USE)))
    assert codes(found) == ["reasoning.position"]
    assert found is not None and found[0].path == "messages[1].content[1]"


def test_position_fails_on_thinking_after_a_client_tool_use() -> None:
    found = position(response("anthropic-messages", anthropic_response(TOOL_USE, THINKING)))
    assert codes(found) == ["reasoning.position"]
    assert found is not None and found[0].path == "content[1]"


def test_interleaved_thinking_after_a_server_tool_result_is_accepted() -> None:
    server_use = {
        "type": "server_tool_use",
        "id": "srvtoolu_1",
        "name": "web_search",
        "input": {"query": "Paris weather"},
    }
    result = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
    body = anthropic_response(THINKING, TEXT, server_use, result, THINKING, TEXT)
    assert codes(position(response("anthropic-messages", body))) == []


def test_position_does_not_apply_without_thinking() -> None:
    assert position(request("anthropic-messages", anthropic_body(TEXT, TOOL_USE))) is None


# --- conversions: the thinking twins ------------------------------------------

ANTHROPIC_TWIN = "thinking/tool-use-anthropic"
DEEPSEEK_TWIN = "thinking/tool-use-deepseek"


def with_message_field(put: PayloadUnderTest, index: int, **changes: Any) -> PayloadUnderTest:
    body = copy.deepcopy(put.raw)
    for key, value in changes.items():
        if value is None:
            body["messages"][index].pop(key, None)
        else:
            body["messages"][index][key] = value
    return request(put.dialect, body)


def anthropic_with_block(
    put: PayloadUnderTest, index: int, block: int, **changes: Any
) -> PayloadUnderTest:
    body = copy.deepcopy(put.raw)
    target = body["messages"][index]["content"][block]
    target.update(changes)
    return request(put.dialect, body)


@pytest.mark.parametrize("number", [0, 1])
def test_the_deepseek_twin_is_a_faithful_conversion(number: int) -> None:
    source = interaction_payload(ANTHROPIC_TWIN, number, "request")
    output = interaction_payload(DEEPSEEK_TWIN, number, "request")
    for code, check in CONVERSION_CHECKS.items():
        result = check(conversion(source, output))
        assert not result, (code, result)


def test_the_deepseek_twin_keeps_reasoning_on_the_tool_call_turn() -> None:
    source = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    output = interaction_payload(DEEPSEEK_TWIN, 1, "request")
    assert codes(CONVERSION_CHECKS["reasoning.replay_missing"](conversion(source, output))) == []
    assert codes(CONVERSION_CHECKS["reasoning.altered"](conversion(source, output))) == []
    # deepseek-chat cannot carry signatures: not judged (docs/conventions.md).
    assert CONVERSION_CHECKS["reasoning.signature_lost"](conversion(source, output)) is None


def test_conversion_replay_missing_fails_when_the_reasoning_is_dropped() -> None:
    source = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    output = with_message_field(
        interaction_payload(DEEPSEEK_TWIN, 1, "request"), 1, reasoning_content=None
    )
    found = CONVERSION_CHECKS["reasoning.replay_missing"](conversion(source, output))
    assert codes(found) == ["reasoning.replay_missing"]
    assert found is not None and found[0].path == "messages[1]"
    # A dropped text is not an altered text: no text to compare, no verdict.
    assert CONVERSION_CHECKS["reasoning.altered"](conversion(source, output)) is None


def test_conversion_replay_missing_needs_reasoning_in_the_source() -> None:
    source = request("openai-chat", deepseek_body(assistant(None), TOOL))
    output = request("deepseek-chat", deepseek_body(assistant(None), TOOL))
    assert CONVERSION_CHECKS["reasoning.replay_missing"](conversion(source, output)) is None


@pytest.mark.parametrize("replacement", ["[reasoning omitted]", "Computed sqrt with a tool."])
def test_altered_fails_on_a_placeholder_or_summary(replacement: str) -> None:
    source = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    output = with_message_field(
        interaction_payload(DEEPSEEK_TWIN, 1, "request"), 1, reasoning_content=replacement
    )
    found = CONVERSION_CHECKS["reasoning.altered"](conversion(source, output))
    assert codes(found) == ["reasoning.altered"]
    assert found is not None
    assert found[0].path == "messages[1].reasoning_content"
    assert found[0].actual == replacement
    assert codes(CONVERSION_CHECKS["reasoning.replay_missing"](conversion(source, output))) == []


def test_altered_ignores_surrounding_whitespace_of_unsigned_reasoning() -> None:
    source = interaction_payload(DEEPSEEK_TWIN, 1, "request")
    text = source.raw["messages"][1]["reasoning_content"]
    output = with_message_field(source, 1, reasoning_content=f"\n{text}\n")
    assert codes(CONVERSION_CHECKS["reasoning.altered"](conversion(source, output))) == []


def test_altered_applies_only_when_the_source_has_reasoning() -> None:
    body = anthropic_body(TEXT, TOOL_USE)
    put = request("anthropic-messages", body)
    assert CONVERSION_CHECKS["reasoning.altered"](conversion(put, put)) is None


# --- reasoning.signature_lost ---------------------------------------------------

signature_lost = CONVERSION_CHECKS["reasoning.signature_lost"]


def test_signature_lost_holds_on_an_unchanged_anthropic_request() -> None:
    put = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    assert codes(signature_lost(conversion(put, put))) == []


def test_signature_lost_fails_on_a_changed_signature() -> None:
    source = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    output = anthropic_with_block(source, 1, 0, signature="Zm9yZ2Vk")
    found = signature_lost(conversion(source, output))
    assert codes(found) == ["reasoning.signature_lost"]
    assert found is not None and found[0].path == "messages[1].content[0]"
    assert codes(CONVERSION_CHECKS["reasoning.altered"](conversion(source, output))) == []


def test_signature_lost_fails_when_the_open_tool_loop_loses_its_thinking() -> None:
    source = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    body = copy.deepcopy(source.raw)
    body["messages"][1]["content"] = body["messages"][1]["content"][1:]
    found = signature_lost(conversion(source, request("anthropic-messages", body)))
    assert codes(found) == ["reasoning.signature_lost"]
    assert found is not None and found[0].path == "messages[1]"


def test_thinking_of_an_earlier_turn_may_be_omitted_whole() -> None:
    source_body = anthropic_body(THINKING, TEXT)
    source_body["messages"].append({"role": "user", "content": "And tomorrow?"})
    output_body = copy.deepcopy(source_body)
    output_body["messages"][1]["content"] = [TEXT]
    source = request("anthropic-messages", source_body)
    # Nothing kept, nothing required: no verdict (not a pass).
    assert signature_lost(conversion(source, request("anthropic-messages", output_body))) is None
    # ...but thinking it keeps must keep its signature.
    output_body["messages"][1]["content"] = [{**THINKING, "signature": "b3RoZXI="}, TEXT]
    found = signature_lost(conversion(source, request("anthropic-messages", output_body)))
    assert codes(found) == ["reasoning.signature_lost"]


def test_signature_lost_fails_on_changed_redacted_data() -> None:
    redacted = {"type": "redacted_thinking", "data": "RW5jcnlwdGVk"}
    source = request("anthropic-messages", anthropic_body(redacted, TOOL_USE))
    output = request(
        "anthropic-messages", anthropic_body({**redacted, "data": "Q2hhbmdlZA=="}, TOOL_USE)
    )
    found = signature_lost(conversion(source, output))
    assert codes(found) == ["reasoning.signature_lost"]
    assert found is not None and "redacted_thinking data" in found[0].message


def test_signature_lost_applies_to_responses() -> None:
    source = response("anthropic-messages", anthropic_response(THINKING, TOOL_USE))
    unsigned = {key: value for key, value in THINKING.items() if key != "signature"}
    output = response("anthropic-messages", anthropic_response(unsigned, TOOL_USE))
    assert codes(signature_lost(conversion(source, output))) == ["reasoning.signature_lost"]
    assert codes(signature_lost(conversion(source, source))) == []


# --- round trips ---------------------------------------------------------------


def roundtrip(
    original: PayloadUnderTest, returned: PayloadUnderTest, via: str
) -> RoundTripUnderTest:
    return RoundTripUnderTest(original=original, returned=returned, via=via)


def test_a_round_trip_through_deepseek_may_lose_signatures_but_not_text() -> None:
    original = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    unsigned = anthropic_with_block(original, 1, 0, signature=None)
    trip = roundtrip(original, unsigned, "deepseek-chat")
    assert ROUNDTRIP_CHECKS["reasoning.signature_lost"](trip) is None
    assert codes(ROUNDTRIP_CHECKS["reasoning.altered"](trip)) == []
    changed = anthropic_with_block(original, 1, 0, thinking="I used a calculator.")
    assert codes(
        ROUNDTRIP_CHECKS["reasoning.altered"](roundtrip(original, changed, "deepseek-chat"))
    ) == ["reasoning.altered"]


def test_a_round_trip_through_anthropic_keeps_signatures() -> None:
    original = interaction_payload(ANTHROPIC_TWIN, 1, "request")
    changed = anthropic_with_block(original, 1, 0, signature="Zm9yZ2Vk")
    trip = roundtrip(original, changed, "anthropic-messages")
    assert codes(ROUNDTRIP_CHECKS["reasoning.signature_lost"](trip)) == ["reasoning.signature_lost"]


# --- the corpus and the real recordings ------------------------------------------


def must_findings(put: PayloadUnderTest, checks: dict[str, Any]) -> list[str]:
    problems = []
    for code, check in checks.items():
        rule = get_rule(code)
        if not rule.applies_to_dialect(put.dialect) or rule.level_for(put.profile) != "MUST":
            continue
        for item in check(put) or []:
            problems.append(f"{put.label}: {item.message}")
    return problems


@pytest.mark.parametrize("case_id", [i for i in CORPUS.ids if not corpus_case(i).is_negative])
def test_corpus_cases_pass_the_reasoning_payload_rules(case_id: str) -> None:
    case = corpus_case(case_id)
    problems = [p for put in case_payloads(case) for p in must_findings(put, PAYLOAD_CHECKS)]
    assert problems == []


def test_the_corpus_exercises_every_reasoning_payload_rule_it_can() -> None:
    applied = {
        code
        for case_id in CORPUS.ids
        for put in case_payloads(corpus_case(case_id))
        for code, check in PAYLOAD_CHECKS.items()
        if get_rule(code).applies_to_dialect(put.dialect) and check(put) is not None
    }
    assert {"reasoning.replay_missing", "reasoning.position"} <= applied


def real_payloads() -> Iterator[PayloadUnderTest]:
    for transcript in load_real_transcripts():
        codec = get_codec(transcript.dialect)
        profile = DEFAULT_PROFILE[transcript.dialect]
        body = transcript.request_body
        if body is not None:  # None: the capture kept only the response
            yield PayloadUnderTest(
                transcript.dialect,
                "request",
                profile,
                body,
                codec.parse_request(body),
                label=f"{transcript.name} request",
            )
        if transcript.status_code != 200:
            continue
        if transcript.kind == "stream":
            parsed: Any = codec.parse_stream(parse_sse(transcript.sse_text()))
            kind: PayloadKind = "stream"
        else:
            parsed = codec.parse_response(transcript.response_body)
            kind = "response"
        yield PayloadUnderTest(
            transcript.dialect,
            kind,
            profile,
            transcript.response_body,
            parsed,
            label=f"{transcript.name} {kind}",
        )


def test_real_recordings_pass_the_reasoning_payload_rules() -> None:
    problems = [p for put in real_payloads() for p in must_findings(put, PAYLOAD_CHECKS)]
    assert problems == []


def test_the_real_deepseek_replay_is_judged_and_holds() -> None:
    judged = [
        put
        for put in real_payloads()
        if put.dialect == "deepseek-chat"
        and PAYLOAD_CHECKS["reasoning.replay_missing"](put) is not None
    ]
    assert len(judged) >= 2
    # The same requests under the legacy reasoner would be refused.
    legacy = [
        PayloadUnderTest(p.dialect, p.kind, "deepseek-reasoner-legacy", p.raw, p.parsed)
        for p in judged
    ]
    assert all(codes(replay_forbidden(p)) for p in legacy)


# --- wiring ------------------------------------------------------------------------


@pytest.mark.parametrize("family", ["reasoning", "xml", "stream", "replay"])
def test_each_rule_has_one_check_per_scope_of_the_catalogue(family: str) -> None:
    from importlib import import_module

    from toolwire.conformance.catalogue import rules_in_family

    module = import_module(f"toolwire.conformance.{family}")
    wired = {
        "payload": getattr(module, "PAYLOAD_CHECKS", {}),
        "conversion": getattr(module, "CONVERSION_CHECKS", {}),
        "roundtrip": getattr(module, "ROUNDTRIP_CHECKS", {}),
        "replay": getattr(module, "REPLAY_CHECKS", {}),
    }
    for scope, checks in wired.items():
        expected = {rule.code for rule in rules_in_family(family) if scope in rule.scopes}
        assert set(checks) == expected, (family, scope)


def twin_pairs() -> list[tuple[str, str, str]]:
    return [
        (case_id, twin_id, put.label)
        for case_id in CORPUS.ids
        for twin_id in corpus_case(case_id).twins.values()
        for put in case_payloads(corpus_case(case_id))
    ]


@pytest.mark.parametrize(("case_id", "twin_id", "label"), twin_pairs())
def test_every_twin_is_a_faithful_conversion_for_these_families(
    case_id: str, twin_id: str, label: str
) -> None:
    # A twin is what a correct converter produces: no reasoning, xml or
    # stream conversion check may find fault with it, nor with the identity.
    from toolwire.conformance import stream, xml

    source = next(p for p in case_payloads(corpus_case(case_id)) if p.label == label)
    output = next(p for p in case_payloads(corpus_case(twin_id)) if p.label == label)
    checks = {**CONVERSION_CHECKS, **xml.CONVERSION_CHECKS, **stream.CONVERSION_CHECKS}
    # A twin recorded from Anthropic carries the signatures Anthropic issued,
    # which no converter from a dialect without signatures could produce: that
    # twin is the expected reasoning, not the expected signatures.
    unsigned_source = source.dialect != "anthropic-messages"
    # Likewise its redacted_thinking blocks: a Gemini source carries that
    # reasoning as its own thoughtSignature, which no converter can turn into
    # Anthropic's (docs/conventions.md, "Gemini"). The reasoning text both say
    # is compared by test_bundled_consistency's twin check.
    redacted_from_gemini = source.dialect == "gemini" and output.dialect == "anthropic-messages"
    for pair in (conversion(source, output), conversion(source, source)):
        problems = {code: check(pair) for code, check in checks.items()}
        if unsigned_source and pair.output is output:
            problems.pop("reasoning.signature_invented")
        if redacted_from_gemini and pair.output is output:
            problems["reasoning.invented"] = [
                f
                for f in problems["reasoning.invented"] or []
                if "redacted thinking" not in f.message
            ]
        assert {code: found for code, found in problems.items() if found} == {}
    for code, check in ROUNDTRIP_CHECKS.items():
        assert not check(roundtrip(source, source, "anthropic-messages")), code


def test_replay_is_not_required_when_the_request_turns_thinking_mode_off() -> None:
    """DeepSeek documents the replay for thinking mode; `thinking: {type: disabled}`
    turns it off, so an earlier tool stretch without reasoning_content is fine."""
    from toolwire.conformance.reasoning import PAYLOAD_CHECKS as REASONING_CHECKS
    from toolwire.harness.payloads import parse_payload

    messages = [
        {"role": "user", "content": "Roll a die."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_00_a",
                    "type": "function",
                    "function": {"name": "roll", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_00_a", "content": "4"},
    ]
    off = {"model": "deepseek-v4-flash", "messages": messages, "thinking": {"type": "disabled"}}
    on = {**off, "thinking": {"type": "enabled"}}
    check = REASONING_CHECKS["reasoning.replay_missing"]
    assert check(parse_payload("deepseek-chat", "request", off, "deepseek-thinking")) is None
    assert check(parse_payload("deepseek-chat", "request", on, "deepseek-thinking"))
