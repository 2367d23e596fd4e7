"""ordering.*: each rule fails on a payload that breaks it, alone, and holds otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    must_codes,
    only,
    openai_request,
    openai_response,
    payload_codes,
)
from toolwire.conformance import ordering
from toolwire.conformance.context import ConversionUnderTest, RoundTripUnderTest
from toolwire.conformance.ordering.block_order import project

ASK = {"role": "user", "content": "Weather in Paris and Rome?"}


def _call(call_id: str, city: str = "Paris") -> dict[str, Any]:
    arguments = '{"city": "' + city + '"}'
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }


def _assistant_calls(*ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [_call(i) for i in ids]}


def _tool(call_id: str, content: str = "18C") -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def _use(call_id: str, city: str = "Paris") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {"city": city}}


def _result(call_id: str, content: str = "18C") -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": content}


def _anthropic_calls(*ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [_use(i) for i in ids]}


def _check(code: str, target: Any) -> Any:
    return ordering.PAYLOAD_CHECKS[code](target)


# --- ordering.result_not_adjacent ---------------------------------------------


def test_an_openai_result_after_a_user_message_is_not_adjacent_and_nothing_else() -> None:
    request = openai_request(
        [ASK, _assistant_calls("call_1"), {"role": "user", "content": "hurry"}, _tool("call_1")]
    )
    found = only(_check("ordering.result_not_adjacent", request))
    assert found.path == "messages[3]"
    assert "messages[2] (user)" in found.message
    assert payload_codes(request) == {"ordering.result_not_adjacent"}


def test_an_openai_result_after_another_message_between_two_results() -> None:
    request = openai_request(
        [
            ASK,
            _assistant_calls("call_1", "call_2"),
            _tool("call_1"),
            {"role": "system", "content": "Be brief."},
            _tool("call_2"),
        ]
    )
    found = only(_check("ordering.result_not_adjacent", request))
    assert found.path == "messages[4]"
    assert must_codes(request) == {"ordering.result_not_adjacent"}


def test_tool_messages_right_after_their_call_are_adjacent() -> None:
    request = openai_request(
        [ASK, _assistant_calls("call_1", "call_2"), _tool("call_1"), _tool("call_2"), ASK]
    )
    assert _check("ordering.result_not_adjacent", request) == []
    assert payload_codes(request) == set()


def test_a_result_after_the_next_assistant_turn_is_pairings_to_report_not_this_rule() -> None:
    # The boundary with pairing.orphan_result: outside its call's answer window
    # a result answers no call "before it", and only pairing reports it.
    request = openai_request(
        [
            ASK,
            _assistant_calls("call_1"),
            {"role": "assistant", "content": "Done."},
            _tool("call_1"),
        ]
    )
    # No result inside its call's window: nothing this rule judges, no verdict.
    assert _check("ordering.result_not_adjacent", request) is None
    assert payload_codes(request) == {"pairing.orphan_result", "pairing.unanswered_call"}


def test_anthropic_results_not_in_the_next_message_under_the_strict_profile() -> None:
    messages = [
        ASK,
        _anthropic_calls("toolu_1"),
        {"role": "user", "content": "any news?"},
        {"role": "user", "content": [_result("toolu_1")]},
    ]
    strict = anthropic_request(messages, "anthropic-strict")
    found = only(_check("ordering.result_not_adjacent", strict))
    assert found.path == "messages[3].content[0]"
    assert payload_codes(strict) == {"ordering.result_not_adjacent"}
    # A target that merges the two user messages: the text then precedes the result.
    merged = anthropic_request(messages, "anthropic-merging")
    assert payload_codes(merged) == {"ordering.result_after_text"}


def test_no_result_in_a_conversation_means_nothing_to_judge() -> None:
    assert _check("ordering.result_not_adjacent", openai_request([ASK])) is None


# --- ordering.result_after_text -------------------------------------------------


def test_text_before_a_tool_result_in_one_user_message() -> None:
    request = anthropic_request(
        [
            ASK,
            _anthropic_calls("toolu_1"),
            {"role": "user", "content": [{"type": "text", "text": "Here:"}, _result("toolu_1")]},
        ]
    )
    found = only(_check("ordering.result_after_text", request))
    assert found.path == "messages[2].content[1]"
    assert found.actual == "messages[2].content[0]"
    assert payload_codes(request) == {"ordering.result_after_text"}
    assert must_codes(request) == {"ordering.result_after_text"}


def test_text_after_the_tool_results_is_allowed() -> None:
    request = anthropic_request(
        [
            ASK,
            _anthropic_calls("toolu_1"),
            {"role": "user", "content": [_result("toolu_1"), {"type": "text", "text": "Go on."}]},
        ]
    )
    assert _check("ordering.result_after_text", request) == []
    assert payload_codes(request) == set()


def test_result_after_text_is_not_judged_in_openai_chat() -> None:
    request = openai_request([ASK, _assistant_calls("call_1"), _tool("call_1")])
    assert _check("ordering.result_after_text", request) is None


# --- ordering.parallel_results_split --------------------------------------------

_SPLIT = [
    ASK,
    _anthropic_calls("toolu_1", "toolu_2"),
    {"role": "user", "content": [_result("toolu_1")]},
    {"role": "user", "content": [_result("toolu_2")]},
]


def test_results_split_over_two_user_messages() -> None:
    strict = anthropic_request(_SPLIT, "anthropic-strict")
    found = only(_check("ordering.parallel_results_split", strict))
    assert found.path == "messages[3]"
    assert found.actual == ["messages[2]", "messages[3]"]
    # One code: neither adjacency nor alternation repeats it.
    assert payload_codes(strict) == {"ordering.parallel_results_split"}
    assert must_codes(strict) == {"ordering.parallel_results_split"}


def test_a_split_is_only_a_warning_where_the_target_merges() -> None:
    lenient = anthropic_request(_SPLIT, "anthropic-merging")
    assert payload_codes(lenient) == {"ordering.parallel_results_split"}
    assert must_codes(lenient) == set()


def test_a_split_fails_under_the_default_anthropic_profile() -> None:
    # Vertex AI, DeepSeek's Anthropic endpoint and Anthropic's API answered 400.
    default = anthropic_request(_SPLIT, "anthropic")
    assert must_codes(default) == {"ordering.parallel_results_split"}


def test_all_results_in_one_user_message_are_not_split() -> None:
    request = anthropic_request(
        [
            ASK,
            _anthropic_calls("toolu_1", "toolu_2"),
            {"role": "user", "content": [_result("toolu_1"), _result("toolu_2")]},
        ],
        "anthropic-strict",
    )
    assert _check("ordering.parallel_results_split", request) == []
    assert payload_codes(request) == set()


# --- ordering.role_alternation ---------------------------------------------------


def test_two_user_messages_in_a_row() -> None:
    messages = [ASK, {"role": "user", "content": "And Rome?"}]
    strict = anthropic_request(messages, "anthropic-strict")
    found = only(_check("ordering.role_alternation", strict))
    assert found.path == "messages[1]"
    assert must_codes(strict) == {"ordering.role_alternation"}
    assert must_codes(anthropic_request(messages, "anthropic")) == set()  # merged: a SHOULD


def test_a_conversation_that_starts_with_the_assistant() -> None:
    request = anthropic_request(
        [{"role": "assistant", "content": "Hello."}, ASK], "anthropic-strict"
    )
    found = only(_check("ordering.role_alternation", request))
    assert found.path == "messages[0].role"
    assert payload_codes(request) == {"ordering.role_alternation"}


def test_a_user_message_after_the_results_message_still_breaks_alternation() -> None:
    request = anthropic_request(
        [
            ASK,
            _anthropic_calls("toolu_1"),
            {"role": "user", "content": [_result("toolu_1")]},
            {"role": "user", "content": "Thanks, now Rome."},
        ],
        "anthropic-strict",
    )
    assert only(_check("ordering.role_alternation", request)).path == "messages[3]"
    assert payload_codes(request) == {"ordering.role_alternation"}


def test_alternating_messages_hold() -> None:
    request = anthropic_request(
        [ASK, _anthropic_calls("toolu_1"), {"role": "user", "content": [_result("toolu_1")]}],
        "anthropic-strict",
    )
    assert _check("ordering.role_alternation", request) == []


# --- ordering.system_placement ----------------------------------------------------


def test_a_system_message_inside_anthropic_messages() -> None:
    request = anthropic_request([{"role": "system", "content": "Be brief."}, ASK])
    found = only(_check("ordering.system_placement", request))
    assert found.path == "messages[0].role"
    # The schema rejects the role too: the schema and the placement rule each
    # say what they check (a documented overlap, as in NAIVE_CONVERTERS.md A).
    assert must_codes(request) == {"ordering.system_placement", "schema.request"}


def test_a_top_level_system_prompt_is_in_place() -> None:
    request = anthropic_request([ASK], system="Be brief.")
    assert _check("ordering.system_placement", request) == []
    assert payload_codes(request) == set()


def test_openai_system_messages_anywhere_are_not_judged() -> None:
    # OpenAI's reference sets no position for system/developer messages.
    request = openai_request([ASK, {"role": "system", "content": "Be brief."}])
    assert _check("ordering.system_placement", request) is None
    assert payload_codes(request) == set()


# --- ordering.result_order --------------------------------------------------------
# Judged on the conversion: the output's order of a turn's results against the
# source's, never the client's own order (issue 27).

ORDER = "ordering.result_order"


def _openai_round(calls: tuple[str, ...], results: tuple[str, ...]) -> Any:
    return openai_request([ASK, _assistant_calls(*calls), *(_tool(i) for i in results)])


def _anthropic_round(calls: tuple[str, ...], results: tuple[str, ...]) -> Any:
    reply = {"role": "user", "content": [_result(i) for i in results]}
    return anthropic_request([ASK, _anthropic_calls(*calls), reply])


def order_check(source: Any, output: Any, mapping: dict[str, str] | None = None) -> Any:
    conversion = ConversionUnderTest(source=source, output=output, id_mapping=mapping)
    return ordering.CONVERSION_CHECKS[ORDER](conversion)


def test_results_reordered_by_the_converter_are_found() -> None:
    # The source in call order, the output not: the converter changed it.
    source = _anthropic_round(("a", "b"), ("a", "b"))
    found = only(order_check(source, _openai_round(("a", "b"), ("b", "a"))))
    assert found.path == "messages[2]"
    assert found.message == (
        "the results of the calls of messages[1] came in the order 'a', 'b' in the source "
        "and 'b', 'a' here"
    )
    assert (found.expected, found.actual) == (["a", "b"], ["b", "a"])
    assert "must" not in found.message.lower()  # a SHOULD


def test_a_clients_out_of_order_results_kept_as_they_came_hold() -> None:
    # The client sent them out of call order; the converter kept its order.
    source = _anthropic_round(("a", "b", "c"), ("c", "a", "b"))
    assert order_check(source, _openai_round(("a", "b", "c"), ("c", "a", "b"))) == []


def test_out_of_order_results_put_back_in_call_order_hold() -> None:
    # Documented outcome: call order is always a right order, so this is a pass,
    # and a real judgement with three results (a third order was possible).
    source = _anthropic_round(("a", "b", "c"), ("c", "a", "b"))
    assert order_check(source, _openai_round(("a", "b", "c"), ("a", "b", "c"))) == []


def test_out_of_order_results_in_a_third_order_are_found() -> None:
    source = _anthropic_round(("a", "b", "c"), ("c", "a", "b"))
    found = only(order_check(source, _openai_round(("a", "b", "c"), ("b", "c", "a"))))
    assert "came in the order 'c', 'a', 'b' in the source and 'b', 'c', 'a' here" in found.message


def test_two_results_out_of_call_order_give_no_verdict() -> None:
    # Kept or put in call order, both hold: a pass would judge nothing.
    source = _anthropic_round(("a", "b"), ("b", "a"))
    assert order_check(source, _openai_round(("a", "b"), ("b", "a"))) is None
    assert order_check(source, _openai_round(("a", "b"), ("a", "b"))) is None


def test_one_result_gives_no_verdict() -> None:
    source = _anthropic_round(("a",), ("a",))
    assert order_check(source, _openai_round(("a",), ("a",))) is None


def test_results_in_call_order_kept_hold() -> None:
    source = _openai_round(("call_1", "call_2"), ("call_1", "call_2"))
    assert order_check(source, _anthropic_round(("call_1", "call_2"), ("call_1", "call_2"))) == []


def test_renamed_ids_are_followed_through_the_declared_mapping() -> None:
    source = _openai_round(("a", "b"), ("a", "b"))
    output = _anthropic_round(("x", "y"), ("y", "x"))
    found = only(order_check(source, output, {"a": "x", "b": "y"}))
    assert "'a', 'b' in the source and 'y', 'x' here" in found.message
    assert order_check(source, _anthropic_round(("x", "y"), ("x", "y")), {"a": "x", "b": "y"}) == []


def test_each_turn_is_compared_with_its_own_source_turn() -> None:
    source = openai_request(
        [
            ASK,
            _assistant_calls("a", "b"),
            _tool("b"),
            _tool("a"),
            _assistant_calls("c", "d"),
            _tool("c"),
            _tool("d"),
        ]
    )
    output = openai_request(
        [
            ASK,
            _assistant_calls("a", "b"),
            _tool("b"),
            _tool("a"),
            _assistant_calls("c", "d"),
            _tool("d"),
            _tool("c"),
        ]
    )
    found = only(order_check(source, output))
    assert (found.path, found.actual) == ("messages[5]", ["d", "c"])


def test_round_trips_are_judged_too() -> None:
    source = _openai_round(("a", "b"), ("a", "b"))
    trip = RoundTripUnderTest(source, _openai_round(("a", "b"), ("b", "a")), "anthropic-messages")
    assert [f.code for f in ordering.ROUNDTRIP_CHECKS[ORDER](trip)] == [ORDER]


def test_a_payload_alone_is_not_judged() -> None:
    # The order a client chose is no converter's change: no payload scope, so
    # toolwire lint says nothing of it.
    request = _openai_round(("call_1", "call_2"), ("call_2", "call_1"))
    assert ORDER not in ordering.PAYLOAD_CHECKS
    assert ORDER not in payload_codes(request)


# --- ordering.block_order ---------------------------------------------------------


def _anthropic_response(*content: dict[str, Any]) -> Any:
    return anthropic_response(list(content), "tool_use")


def _openai_response(content: str | None, *calls: dict[str, Any]) -> Any:
    message: dict[str, Any] = {"content": content}
    if calls:
        message["tool_calls"] = list(calls)
    return openai_response(message, "tool_calls")


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _block_order(source: Any, output: Any) -> Any:
    return ordering.CONVERSION_CHECKS["ordering.block_order"](ConversionUnderTest(source, output))


def test_text_after_a_call_may_move_before_the_calls_in_openai_chat() -> None:
    source = _anthropic_response(_text("Checking."), _use("toolu_1"), _text("One moment."))
    output = _openai_response("Checking.\n\nOne moment.", _call("toolu_1"))
    assert _block_order(source, output) == []


def test_an_anthropic_output_that_moves_the_text_after_the_call() -> None:
    source = _openai_response("Checking.", _call("call_1"))
    output = _anthropic_response(_use("call_1"), _text("Checking."))
    found = only(_block_order(source, output))
    assert found.path == "content"
    assert (found.expected, found.actual) == (["text", "call:1"], ["call:1", "text"])


def test_a_pass_through_that_reorders_blocks_it_could_keep() -> None:
    source = _anthropic_response(_use("toolu_1"), _text("Now the second:"), _use("toolu_2", "Rome"))
    output = _anthropic_response(_text("Now the second:"), _use("toolu_1"), _use("toolu_2", "Rome"))
    found = only(_block_order(source, output))
    assert found.expected == ["call:1", "text", "call:2"]


def test_calls_reordered_in_an_openai_output() -> None:
    source = _anthropic_response(_use("toolu_1"), _use("toolu_2", "Rome"))
    output = _openai_response(None, _call("toolu_2", "Rome"), _call("toolu_1"))
    assert only(_block_order(source, output)).actual == ["call:2", "call:1"]


def test_block_order_has_nothing_to_judge_without_calls() -> None:
    source = _anthropic_response(_text("Hi."))
    assert _block_order(source, _openai_response("Hi.")) is None


def test_a_round_trip_through_openai_chat_may_bring_text_before_the_calls() -> None:
    original = _anthropic_response(_text("A."), _use("toolu_1"), _text("B."))
    returned = _anthropic_response(_text("A.\nB."), _use("toolu_1"))
    check = ordering.ROUNDTRIP_CHECKS["ordering.block_order"]
    assert check(RoundTripUnderTest(original, returned, "openai-chat")) == []
    # ...but through anthropic-messages itself the order must come back as it was.
    assert only(check(RoundTripUnderTest(original, returned, "anthropic-messages")))


@pytest.mark.parametrize(
    ("layout", "dialect", "expected"),
    [
        (("call:1", "text", "call:2"), "openai-chat", ("text", "call:1", "call:2")),
        (("call:1", "text", "call:2"), "anthropic-messages", ("call:1", "text", "call:2")),
        (("call:1",), "deepseek-chat", ("call:1",)),
    ],
)
def test_projection_onto_what_a_dialect_can_carry(
    layout: tuple[str, ...], dialect: str, expected: tuple[str, ...]
) -> None:
    assert project(layout, dialect) == expected
