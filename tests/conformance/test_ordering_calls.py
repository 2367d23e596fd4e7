"""ordering.parallel_calls_split: the calls of one assistant turn stay in one turn,
in requests of either dialect; no verdict where no turn makes several calls."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    openai_request,
    openai_response,
)
from tests.conformance.test_ordering import (
    ASK,
    _anthropic_calls,
    _assistant_calls,
    _result,
    _tool,
    _use,
)
from toolwire.conformance import ordering
from toolwire.conformance.catalogue import get_rule
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest, RoundTripUnderTest

CODE = "ordering.parallel_calls_split"


def split_check(
    source: PayloadUnderTest, output: PayloadUnderTest, mapping: dict[str, str] | None = None
) -> Any:
    conversion = ConversionUnderTest(source=source, output=output, id_mapping=mapping)
    return ordering.CONVERSION_CHECKS[CODE](conversion)


def anthropic_parallel(*ids: str) -> PayloadUnderTest:
    return anthropic_request(
        [ASK, _anthropic_calls(*ids), {"role": "user", "content": [_result(i) for i in ids]}]
    )


def openai_parallel(*ids: str) -> PayloadUnderTest:
    return openai_request([ASK, _assistant_calls(*ids), *(_tool(i) for i in ids)])


def openai_split(*ids: str) -> PayloadUnderTest:
    messages: list[Any] = [ASK]
    for call_id in ids:
        messages += [_assistant_calls(call_id), _tool(call_id)]
    return openai_request(messages)


def anthropic_split(*ids: str) -> PayloadUnderTest:
    messages: list[Any] = [ASK]
    for call_id in ids:
        messages += [_anthropic_calls(call_id), {"role": "user", "content": [_result(call_id)]}]
    return anthropic_request(messages)


def test_calls_kept_in_one_turn_pass() -> None:
    assert split_check(anthropic_parallel("a", "b"), openai_parallel("a", "b")) == []
    assert split_check(openai_parallel("a", "b"), anthropic_parallel("a", "b")) == []


def test_calls_split_toward_openai_are_found() -> None:
    found = split_check(anthropic_parallel("a", "b", "c"), openai_split("a", "b", "c"))
    assert [f.code for f in found] == [CODE]
    assert "3 calls" in found[0].message and "3 assistant turns" in found[0].message
    assert found[0].path == "messages[3]"
    assert "must" not in found[0].message.lower()


def test_calls_split_toward_anthropic_are_found() -> None:
    found = split_check(openai_parallel("a", "b"), anthropic_split("a", "b"))
    assert [f.code for f in found] == [CODE]


def test_consecutive_assistant_messages_are_one_turn() -> None:
    # Anthropic's API merges consecutive same-role messages: the calls stay in one turn.
    output = anthropic_request(
        [
            ASK,
            {"role": "assistant", "content": [_use("a")]},
            {"role": "assistant", "content": [_use("b", "Rome")]},
            {"role": "user", "content": [_result("a"), _result("b")]},
        ]
    )
    assert split_check(openai_parallel("a", "b"), output) == []


def test_ids_renamed_through_a_declared_mapping_are_followed() -> None:
    source = anthropic_parallel("a", "b")
    assert split_check(source, openai_parallel("x", "y"), {"a": "x", "b": "y"}) == []
    found = split_check(source, openai_split("y", "x"), {"a": "x", "b": "y"})
    assert [f.code for f in found] == [CODE]


def test_a_source_already_split_is_not_judged() -> None:
    # Calls the source made in separate turns were dependent: nothing to keep together.
    assert split_check(openai_split("a", "b"), anthropic_split("a", "b")) is None


def test_single_calls_and_responses_give_no_verdict() -> None:
    assert split_check(anthropic_parallel("a"), openai_parallel("a")) is None
    response = anthropic_response([_use("a"), _use("b")], "tool_use")
    message = _assistant_calls("a", "b")
    del message["role"]
    assert split_check(response, openai_response(message, "tool_calls")) is None


def test_a_lost_call_does_not_shift_the_pairing() -> None:
    # Three calls in the source, the first lost in the output: paired by id only,
    # the other two still sit together.
    assert split_check(anthropic_parallel("a", "b", "c"), openai_parallel("b", "c")) == []


def test_round_trips_are_judged_too() -> None:
    trip = RoundTripUnderTest(
        anthropic_parallel("a", "b"), anthropic_split("a", "b"), "openai-chat"
    )
    found = ordering.ROUNDTRIP_CHECKS[CODE](trip)
    assert [f.code for f in found] == [CODE]


def test_the_rule_is_a_should_with_citations() -> None:
    rule = get_rule(CODE)
    assert rule.level == "SHOULD"
    assert any("parallel-tool-use" in url for url in rule.docs)
