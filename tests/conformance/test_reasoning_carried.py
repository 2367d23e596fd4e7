"""reasoning.dropped / not_carried / invented / signature_invented: reasoning in
responses and streams is neither lost nor made up, and no signature is forged.

Each check fails on the defect, holds on a faithful conversion and on a
correct-but-different one (``reasoning`` instead of ``reasoning_content``,
``signature: ""`` by convention), and gives no verdict when there is nothing
to judge."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    openai_request,
    openai_response,
    payload,
)
from tests.conformance.test_reasoning import codes, interaction_payload
from toolwire.conformance.catalogue import get_rule
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest, RoundTripUnderTest
from toolwire.conformance.reasoning import CONVERSION_CHECKS, ROUNDTRIP_CHECKS
from toolwire.harness.payloads import events_to_wire

REASONING = "The user wants Paris. I will call get_weather."
THINKING = {"type": "thinking", "thinking": REASONING, "signature": "RXFzaWduZWQ="}
REDACTED = {"type": "redacted_thinking", "data": "RW5jcnlwdGVk"}
TEXT = {"type": "text", "text": "Checking."}
TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
CALL = {
    "id": "toolu_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
}


def conversion(source: PayloadUnderTest, output: PayloadUnderTest) -> ConversionUnderTest:
    return ConversionUnderTest(source=source, output=output)


def check(code: str, source: PayloadUnderTest, output: PayloadUnderTest) -> Any:
    return CONVERSION_CHECKS[code](conversion(source, output))


def deepseek_answer(calls: bool = True, **fields: Any) -> PayloadUnderTest:
    message: dict[str, Any] = {"content": "Checking.", **fields}
    if calls:
        message["tool_calls"] = [copy.deepcopy(CALL)]
    finish = "tool_calls" if calls else "stop"
    return openai_response(message, finish, dialect="deepseek-chat")


def openai_answer(calls: bool = True, **fields: Any) -> PayloadUnderTest:
    message: dict[str, Any] = {"content": "Checking.", **fields}
    if calls:
        message["tool_calls"] = [copy.deepcopy(CALL)]
    return openai_response(message, "tool_calls" if calls else "stop")


def thinking_answer(*content: dict[str, Any], calls: bool = True) -> PayloadUnderTest:
    blocks = [*content, TEXT, TOOL_USE] if calls else [*content, TEXT]
    return anthropic_response(blocks, "tool_use" if calls else "end_turn")


# --- reasoning.dropped and reasoning.not_carried -------------------------------


def test_a_tool_call_response_that_loses_its_reasoning_toward_deepseek_is_dropped() -> None:
    source = thinking_answer(THINKING)
    found = check("reasoning.dropped", source, deepseek_answer())
    assert codes(found) == ["reasoning.dropped"]
    assert found[0].path == "choices[0].message"
    assert "cannot send it back" in found[0].message
    # One defect, one code: the SHOULD twin and the older rules stay silent.
    assert check("reasoning.not_carried", source, deepseek_answer()) is None
    assert check("reasoning.replay_missing", source, deepseek_answer()) is None
    # The whole reasoning is gone: altered compares nothing and gives no verdict.
    assert check("reasoning.altered", source, deepseek_answer(reasoning_content="")) is None


def test_a_faithful_response_keeps_its_reasoning() -> None:
    source = thinking_answer(THINKING)
    assert (
        codes(check("reasoning.dropped", source, deepseek_answer(reasoning_content=REASONING)))
        == []
    )


def test_reasoning_blanked_to_an_empty_string_is_dropped() -> None:
    found = check(
        "reasoning.dropped", thinking_answer(THINKING), deepseek_answer(reasoning_content="")
    )
    assert codes(found) == ["reasoning.dropped"]


def test_a_deepseek_response_that_loses_its_reasoning_toward_anthropic_is_dropped() -> None:
    source = deepseek_answer(reasoning_content=REASONING)
    output = thinking_answer()
    assert codes(check("reasoning.dropped", source, output)) == ["reasoning.dropped"]
    kept = thinking_answer({"type": "thinking", "thinking": REASONING, "signature": ""})
    assert codes(check("reasoning.dropped", source, kept)) == []


def test_an_anthropic_proxy_that_drops_signed_thinking_is_dropped_not_signature_lost() -> None:
    source = thinking_answer(THINKING)
    found = check("reasoning.dropped", source, thinking_answer())
    assert codes(found) == ["reasoning.dropped"]
    assert check("reasoning.signature_lost", source, thinking_answer()) is None
    # Redacted thinking alone is reasoning anthropic can carry back.
    assert codes(check("reasoning.dropped", thinking_answer(REDACTED), thinking_answer())) == [
        "reasoning.dropped"
    ]


def test_the_reasoning_of_a_final_answer_lost_is_a_should() -> None:
    source = thinking_answer(THINKING, calls=False)
    output = deepseek_answer(calls=False)
    assert check("reasoning.dropped", source, output) is None
    found = check("reasoning.not_carried", source, output)
    assert codes(found) == ["reasoning.not_carried"]
    assert "must" not in found[0].message.lower()
    assert get_rule("reasoning.not_carried").level == "SHOULD"


def test_reasoning_lost_toward_openai_chat_is_a_should() -> None:
    source = thinking_answer(THINKING)
    assert check("reasoning.dropped", source, openai_answer()) is None
    assert codes(check("reasoning.not_carried", source, openai_answer())) == [
        "reasoning.not_carried"
    ]
    assert not get_rule("reasoning.dropped").applies_to_dialect("openai-chat")


def test_reasoning_carried_as_the_reasoning_field_is_kept() -> None:
    # Groq and OpenRouter name the field `reasoning`: as good as reasoning_content.
    source = thinking_answer(THINKING)
    output = openai_answer(reasoning=REASONING)
    assert codes(check("reasoning.not_carried", source, output)) == []
    assert codes(check("reasoning.altered", source, output)) == []
    assert codes(check("reasoning.invented", source, output)) == []


def test_the_legacy_reasoner_needs_no_reasoning_back() -> None:
    source = thinking_answer(THINKING)
    raw = deepseek_answer().raw
    output = payload("deepseek-chat", "response", raw, "deepseek-reasoner-legacy")
    assert check("reasoning.dropped", source, output) is None
    assert codes(check("reasoning.not_carried", source, output)) == ["reasoning.not_carried"]
    assert get_rule("reasoning.dropped").level_for("deepseek-reasoner-legacy") is None


def test_redacted_thinking_toward_a_text_only_target_is_not_judged() -> None:
    # DeepSeek cannot carry redacted data (docs/conventions.md): nothing was lost.
    source = thinking_answer(REDACTED)
    assert check("reasoning.dropped", source, deepseek_answer(reasoning_content="")) is None
    assert check("reasoning.not_carried", source, openai_answer()) is None


def test_no_reasoning_in_the_source_gives_no_verdict() -> None:
    source = thinking_answer()
    for code in ("reasoning.dropped", "reasoning.not_carried"):
        assert check(code, source, deepseek_answer()) is None
        assert check(code, source, openai_answer(reasoning_content="x")) is None


def test_requests_are_left_to_the_replay_rules() -> None:
    body = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [THINKING, TOOL_USE]},
    ]
    source = anthropic_request(body)
    output = openai_request([{"role": "user", "content": "Weather?"}])
    assert check("reasoning.dropped", source, output) is None
    assert check("reasoning.not_carried", source, output) is None


def test_a_stream_that_loses_its_reasoning_is_dropped() -> None:
    source = interaction_payload("thinking/stream-anthropic", 0, "stream")
    faithful = interaction_payload("thinking/stream-deepseek", 0, "stream")
    assert codes(check("reasoning.dropped", source, faithful)) == []
    # The same stream with every reasoning delta renamed to a field nobody reads.
    stripped_events = tuple(
        replace(event, data=event.data.replace('"reasoning_content"', '"ignored_field"'))
        for event in faithful.raw
    )
    stripped = payload("deepseek-chat", "stream", events_to_wire(stripped_events))
    assert codes(check("reasoning.dropped", source, stripped)) == ["reasoning.dropped"]


# --- reasoning.invented --------------------------------------------------------


def test_a_placeholder_where_the_source_had_no_reasoning_is_invented() -> None:
    found = check(
        "reasoning.invented", thinking_answer(), openai_answer(reasoning_content="Thinking...")
    )
    assert codes(found) == ["reasoning.invented"]
    assert found[0].path == "choices[0].message.reasoning_content"


def test_an_empty_reasoning_content_is_not_an_invention() -> None:
    # The "" DeepSeek needs on tool-call turns carries no reasoning (docs/conventions.md).
    source = anthropic_request(
        [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": [TOOL_USE]}]
    )
    messages = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "", "reasoning_content": "", "tool_calls": [CALL]},
    ]
    output = openai_request(messages, dialect="deepseek-chat")
    assert check("reasoning.invented", source, output) is None
    messages[1]["reasoning_content"] = "(reasoning not available)"
    invented = openai_request(messages, dialect="deepseek-chat")
    assert codes(check("reasoning.invented", source, invented)) == ["reasoning.invented"]


def test_invented_thinking_toward_anthropic_is_a_must_elsewhere_a_should() -> None:
    rule = get_rule("reasoning.invented")
    assert rule.level_for("anthropic") == "MUST"
    assert rule.level_for("openai") == "SHOULD"
    assert rule.level_for("deepseek-thinking") == "SHOULD"
    output = thinking_answer({"type": "thinking", "thinking": "Let me see.", "signature": ""})
    assert codes(check("reasoning.invented", deepseek_answer(), output)) == ["reasoning.invented"]


def test_reasoning_from_the_source_is_not_invented() -> None:
    source = deepseek_answer(reasoning_content=REASONING)
    output = thinking_answer({"type": "thinking", "thinking": REASONING, "signature": ""})
    assert codes(check("reasoning.invented", source, output)) == []


def test_invented_gives_no_verdict_when_the_output_carries_no_reasoning() -> None:
    assert check("reasoning.invented", thinking_answer(THINKING), openai_answer()) is None


# --- reasoning.signature_invented ----------------------------------------------


def test_an_empty_signature_on_deepseek_reasoning_is_the_convention() -> None:
    source = deepseek_answer(reasoning_content=REASONING)
    output = thinking_answer({"type": "thinking", "thinking": REASONING, "signature": ""})
    assert codes(check("reasoning.signature_invented", source, output)) == []


def test_a_made_up_signature_is_invented() -> None:
    source = deepseek_answer(reasoning_content=REASONING)
    output = thinking_answer({"type": "thinking", "thinking": REASONING, "signature": "Zm9yZ2Vk"})
    found = check("reasoning.signature_invented", source, output)
    assert codes(found) == ["reasoning.signature_invented"]
    assert found[0].path == "content[0]"
    assert "carried no signature" in found[0].message


def test_a_kept_signature_passes_and_a_changed_one_is_signature_lost_only() -> None:
    source = thinking_answer(THINKING)
    assert codes(check("reasoning.signature_invented", source, source)) == []
    changed = thinking_answer({**THINKING, "signature": "Q2hhbmdlZA=="})
    assert codes(check("reasoning.signature_invented", source, changed)) == []
    assert codes(check("reasoning.signature_lost", source, changed)) == ["reasoning.signature_lost"]


def test_an_extra_signed_block_beside_the_kept_ones_is_invented() -> None:
    source = thinking_answer(THINKING)
    extra = {"type": "redacted_thinking", "data": "TWFkZVVw"}
    found = check("reasoning.signature_invented", source, thinking_answer(THINKING, extra))
    assert codes(found) == ["reasoning.signature_invented"]
    assert "redacted_thinking data" in found[0].message


def test_signatures_moved_between_blocks_are_found() -> None:
    second = {"type": "thinking", "thinking": "Then Rome.", "signature": "U2Vjb25k"}
    source = thinking_answer(THINKING, second)
    swapped = thinking_answer(
        {**THINKING, "signature": second["signature"]},
        {**second, "signature": THINKING["signature"]},
    )
    found = check("reasoning.signature_invented", source, swapped)
    assert codes(found) == ["reasoning.signature_invented"]
    assert "another order" in found[0].message


def test_signature_invented_gives_no_verdict_without_signatures_in_the_output() -> None:
    assert (
        check("reasoning.signature_invented", thinking_answer(THINKING), thinking_answer()) is None
    )
    assert check("reasoning.signature_invented", thinking_answer(), deepseek_answer()) is None


def test_signature_invented_is_judged_on_round_trips_back_to_anthropic() -> None:
    original = thinking_answer(THINKING)
    forged = thinking_answer(
        {**THINKING}, {"type": "thinking", "thinking": "More.", "signature": "Rm9yZ2Vk"}
    )
    trip = RoundTripUnderTest(original, forged, via="openai-chat")
    assert codes(ROUNDTRIP_CHECKS["reasoning.signature_invented"](trip)) == [
        "reasoning.signature_invented"
    ]
    assert (
        codes(
            ROUNDTRIP_CHECKS["reasoning.signature_invented"](
                RoundTripUnderTest(original, original, via="openai-chat")
            )
        )
        == []
    )


def test_the_new_musts_cite_documents() -> None:
    for code in ("reasoning.dropped", "reasoning.invented", "reasoning.signature_invented"):
        rule = get_rule(code)
        assert rule.docs and all(url.startswith("https://") for url in rule.docs)


# --- reasoning carried in fields the codecs do not read --------------------------

OPENROUTER_SIGNATURE = "T3BlblJvdXRlciBzaWdu"


def test_a_signature_carried_in_openrouter_reasoning_details_is_not_invented() -> None:
    # OpenRouter returns an Anthropic model's signature in reasoning_details
    # (https://openrouter.ai/docs/use-cases/reasoning-tokens): a converter that
    # puts it back on the thinking block keeps it, it does not make it up.
    detail = {
        "type": "reasoning.text",
        "text": REASONING,
        "signature": OPENROUTER_SIGNATURE,
        "format": "anthropic-claude-v1",
        "index": 0,
    }
    source = openai_answer(reasoning=REASONING, reasoning_details=[detail])
    output = thinking_answer(
        {"type": "thinking", "thinking": REASONING, "signature": OPENROUTER_SIGNATURE}
    )
    assert codes(check("reasoning.signature_invented", source, output)) == []
    assert codes(check("reasoning.invented", source, output)) == []
    forged = thinking_answer({"type": "thinking", "thinking": REASONING, "signature": "Rm9yZ2Vk"})
    assert codes(check("reasoning.signature_invented", source, forged)) == [
        "reasoning.signature_invented"
    ]


def test_encrypted_reasoning_details_alone_are_reasoning_of_the_source() -> None:
    detail = {"type": "reasoning.encrypted", "data": "RW5jcnlwdGVk", "index": 0}
    source = openai_answer(reasoning_details=[detail])
    output = thinking_answer(REDACTED)
    assert codes(check("reasoning.invented", source, output)) == []
    assert codes(check("reasoning.signature_invented", source, output)) == []
    assert codes(check("reasoning.invented", openai_answer(), output)) == ["reasoning.invented"]


def test_text_where_the_model_returned_an_empty_reasoning_is_invented_not_altered() -> None:
    # DeepSeek returned reasoning_content "" (no reasoning): a thinking block with
    # text in the output is made up, one defect under one code.
    source = deepseek_answer(reasoning_content="")
    output = thinking_answer({"type": "thinking", "thinking": "Thinking...", "signature": ""})
    assert codes(check("reasoning.invented", source, output)) == ["reasoning.invented"]
    assert check("reasoning.altered", source, output) is None  # nothing to compare


def _responses_answer(*reasoning: dict[str, Any]) -> PayloadUnderTest:
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "toolu_1",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
        "status": "completed",
    }
    raw = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-5-mini",
        "output": [*reasoning, call],
        "usage": {"input_tokens": 10, "output_tokens": 20, "total_tokens": 30},
    }
    return payload("openai-responses", "response", raw)


def test_an_encrypted_only_reasoning_item_is_reasoning_the_model_returned() -> None:
    # A reasoning item without summary (encrypted_content only) is still reasoning:
    # redacted thinking in its place is not "never returned" (whether such a form
    # can travel is another question: docs/conventions.md, "The Responses API").
    encrypted = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"}
    output = thinking_answer(REDACTED)
    assert codes(check("reasoning.invented", _responses_answer(encrypted), output)) == []
    found = check("reasoning.invented", _responses_answer(), output)
    assert codes(found) == ["reasoning.invented"]


def _gemini_call_answer(signature: str, text: bool = False) -> PayloadUnderTest:
    part: dict[str, Any] = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
    if text:
        part = {"text": "Sunny."}
    raw = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{**part, "thoughtSignature": signature}]},
                "finishReason": "STOP",
            }
        ]
    }
    return payload("gemini", "response", raw)


def test_a_gemini_call_signature_carried_as_a_thinking_signature_is_not_invented() -> None:
    # claude-code-router carries the call's thoughtSignature on a thinking block:
    # the value came from the source, so it is not made up.
    source = _gemini_call_answer("R2VtaW5pU2ln")
    carried = thinking_answer({"type": "thinking", "thinking": "", "signature": "R2VtaW5pU2ln"})
    assert codes(check("reasoning.signature_invented", source, carried)) == []
    forged = thinking_answer({"type": "thinking", "thinking": "", "signature": "Rm9yZ2Vk"})
    assert codes(check("reasoning.signature_invented", source, forged)) == [
        "reasoning.signature_invented"
    ]


def test_a_gemini_text_part_signature_carried_as_a_thinking_signature_is_not_invented() -> None:
    source = _gemini_call_answer("VGV4dFNpZw==", text=True)
    carried = thinking_answer({"type": "thinking", "thinking": "", "signature": "VGV4dFNpZw=="})
    assert codes(check("reasoning.signature_invented", source, carried)) == []
