"""The round-trip scope: A -> B -> A compared with A, each defect under one code."""

from __future__ import annotations

import copy
from typing import Any

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    only,
    openai_request,
    roundtrip_codes,
)
from toolwire.conformance import fidelity
from toolwire.conformance.context import RoundTripUnderTest

IMAGE = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
MESSAGES: list[Any] = [
    {"role": "user", "content": [{"type": "text", "text": "What is this?"}, IMAGE]},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "toolu_1", "name": "zoom", "input": {"factor": 2}},
            {"type": "text", "text": "Zooming."},
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "no", "is_error": True}
        ],
    },
]
TOP = {
    "system": "Describe images.",
    "temperature": 0.2,
    "stop_sequences": ["END"],
    "tools": [{"name": "zoom", "input_schema": {"type": "object"}}],
}


def _original() -> Any:
    return anthropic_request(copy.deepcopy(MESSAGES), **copy.deepcopy(TOP))


def _returned(edit: Any = None, **top: Any) -> Any:
    messages = copy.deepcopy(MESSAGES)
    # Through openai-chat the text after the call comes back before it, joined.
    messages[1]["content"] = [
        {"type": "text", "text": "Let me look.\n\nZooming."},
        messages[1]["content"][1],
    ]
    if edit is not None:
        edit(messages)
    return anthropic_request(messages, **{**copy.deepcopy(TOP), **top})


def _roundtrip(returned: Any, via: str = "openai-chat") -> Any:
    check = fidelity.ROUNDTRIP_CHECKS["fidelity.roundtrip"]
    return check(RoundTripUnderTest(_original(), returned, via))


def test_a_faithful_round_trip_through_openai_chat_passes_every_round_trip_rule() -> None:
    assert _roundtrip(_returned()) == []
    assert roundtrip_codes(_original(), _returned(), "openai-chat") == set()


def test_through_anthropic_itself_the_text_order_must_come_back() -> None:
    assert roundtrip_codes(_original(), _returned(), "anthropic-messages") == {
        "ordering.block_order"
    }


def test_a_lost_image_is_the_round_trip_rule_s() -> None:
    def drop_image(messages: list[Any]) -> None:
        messages[0]["content"] = messages[0]["content"][:1]

    returned = _returned(drop_image)
    found = only(_roundtrip(returned))
    assert (found.expected, found.actual) == (["image"], [])
    assert roundtrip_codes(_original(), returned, "openai-chat") == {"fidelity.roundtrip"}


def test_lost_request_parameters() -> None:
    returned = _returned(temperature=1.0, stop_sequences=None)
    paths = sorted(f.path for f in _roundtrip(returned))
    assert paths == ["stop_sequences", "temperature"]
    assert roundtrip_codes(_original(), returned, "openai-chat") == {"fidelity.roundtrip"}


def test_an_empty_stop_list_is_no_stop() -> None:
    check = fidelity.ROUNDTRIP_CHECKS["fidelity.roundtrip"]
    for key, empty in (("stop", []), ("stop", None)):
        original = openai_request([{"role": "user", "content": "Hi"}], **{key: empty})
        returned = openai_request([{"role": "user", "content": "Hi"}])
        assert not check(RoundTripUnderTest(original, returned, "anthropic-messages"))
    original = anthropic_request([{"role": "user", "content": "Hi"}], stop_sequences=[])
    returned = anthropic_request([{"role": "user", "content": "Hi"}])
    assert not check(RoundTripUnderTest(original, returned, "openai-chat"))
    # A stop sequence that was set still has to come back.
    original = openai_request([{"role": "user", "content": "Hi"}], stop=["END"])
    returned = openai_request([{"role": "user", "content": "Hi"}], stop=[])
    assert only(check(RoundTripUnderTest(original, returned, "anthropic-messages"))).path == "stop"


def _drop_error(messages: list[Any]) -> None:
    del messages[2]["content"][0]["is_error"]


def test_a_flag_lost_on_the_way_back_from_openai_chat_is_not_judged_again() -> None:
    # Through openai-chat the flag travels only by the Error: convention; its
    # forward leg is judged on its own conversion (docs/conventions.md).
    codes = roundtrip_codes(_original(), _returned(_drop_error), "openai-chat")
    assert "fidelity.error_flag" not in codes


def test_a_flag_lost_through_a_dialect_that_carries_it_is_a_finding() -> None:
    codes = roundtrip_codes(_original(), _returned(_drop_error), "anthropic-messages")
    assert "fidelity.error_flag" in codes


def test_a_parameter_the_original_did_not_set_may_appear() -> None:
    original = openai_request([{"role": "user", "content": "Hi"}])
    returned = openai_request([{"role": "user", "content": "Hi"}], max_tokens=4096)
    check = fidelity.ROUNDTRIP_CHECKS["fidelity.roundtrip"]
    # Nothing the original set, no opaque block: nothing judged, no verdict.
    assert check(RoundTripUnderTest(original, returned, "anthropic-messages")) is None


def test_each_other_defect_keeps_its_own_code_in_a_round_trip() -> None:
    def change_text(messages: list[Any]) -> None:
        messages[0]["content"][0]["text"] = "What's this?"

    def change_arguments(messages: list[Any]) -> None:
        messages[1]["content"][1]["input"] = {"factor": "2"}

    cases = {
        "fidelity.text": _returned(change_text),
        "fidelity.arguments": _returned(change_arguments),
        "fidelity.tool_definitions": _returned(
            tools=[{"name": "zoom_in", "input_schema": {"type": "object"}}]
        ),
        "fidelity.tool_choice": _returned(tool_choice={"type": "any"}),
    }
    for code, returned in cases.items():
        assert roundtrip_codes(_original(), returned, "openai-chat") == {code}, code


def test_a_stop_sequence_comes_back_as_end_turn_only_through_openai_chat() -> None:
    original = anthropic_response([{"type": "text", "text": "Hi"}], "stop_sequence")
    returned = anthropic_response([{"type": "text", "text": "Hi"}], "end_turn")
    check = fidelity.ROUNDTRIP_CHECKS["fidelity.stop_reason"]
    assert not check(RoundTripUnderTest(original, returned, "openai-chat"))
    assert only(check(RoundTripUnderTest(original, returned, "anthropic-messages")))
    # No opaque block and no request parameter: fidelity.roundtrip has nothing to judge.
    assert (
        fidelity.ROUNDTRIP_CHECKS["fidelity.roundtrip"](
            RoundTripUnderTest(original, returned, "openai-chat")
        )
        is None
    )
