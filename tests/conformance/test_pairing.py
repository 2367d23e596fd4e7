"""pairing.*: each code fails on the defect it names, and only that one."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest, RoundTripUnderTest
from toolwire.conformance.pairing import (
    CONVERSION_CHECKS,
    PAYLOAD_CHECKS,
    ROUNDTRIP_CHECKS,
    id_pattern,
)
from toolwire.harness.model import DIALECTS
from toolwire.harness.payloads import parse_payload


def _openai(messages: list[dict[str, Any]]) -> PayloadUnderTest:
    return parse_payload("openai-chat", "request", {"model": "m", "messages": messages}, "openai")


def _anthropic(messages: list[dict[str, Any]]) -> PayloadUnderTest:
    body = {"model": "m", "max_tokens": 10, "messages": messages}
    return parse_payload("anthropic-messages", "request", body, "anthropic")


def _call(call_id: str | None, name: str = "get_weather") -> dict[str, Any]:
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": "{}"}}
    if call_id is not None:
        call["id"] = call_id
    return call


def _assistant(*calls: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


def _tool(call_id: str, content: str = "ok") -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


USER = {"role": "user", "content": "weather?"}


def _codes(payload: PayloadUnderTest) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for code, check in PAYLOAD_CHECKS.items():
        for finding in check(payload) or []:
            found.setdefault(code, []).append(finding.path)
    return found


def test_a_well_paired_conversation_has_no_finding() -> None:
    payload = _openai(
        [USER, _assistant(_call("call_a"), _call("call_b")), _tool("call_a"), _tool("call_b")]
    )
    assert _codes(payload) == {}


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        (
            [USER, _assistant(_call(None)), _tool("x")],
            {
                "pairing.call_id_missing": ["messages[1].tool_calls[0]"],
                "pairing.orphan_result": ["messages[2]"],
            },
        ),
        (
            [USER, _assistant(_call("c1"), _call("c1")), _tool("c1")],
            {"pairing.call_id_duplicate": ["messages[1].tool_calls[0]"]},
        ),
        (
            [USER, _assistant(_call("call_1")), _tool("call_01")],
            {
                "pairing.orphan_result": ["messages[2]"],
                "pairing.unanswered_call": ["messages[1].tool_calls[0]"],
            },
        ),
        (
            [USER, _assistant(_call("c1")), _tool("c1"), _tool("c1")],
            {"pairing.duplicate_result": ["messages[3]"]},
        ),
        (
            [USER, _assistant(_call("c1")), USER, {"role": "assistant", "content": "x"}],
            {"pairing.unanswered_call": ["messages[1].tool_calls[0]"]},
        ),
        (
            [USER, _assistant(_call("c1", name="get weather")), _tool("c1")],
            {"pairing.id_pattern": ["messages[1].tool_calls[0]"]},
        ),
    ],
    ids=["id-missing", "id-duplicate", "orphan", "duplicate-result", "unanswered", "bad-name"],
)
def test_each_defect_gives_its_code(
    messages: list[dict[str, Any]], expected: dict[str, list[str]]
) -> None:
    assert _codes(_openai(messages)) == expected


def test_calls_left_open_at_the_end_of_the_conversation_are_allowed() -> None:
    assert _codes(_openai([USER, _assistant(_call("c1"))])) == {}


def test_orphan_names_where_the_referenced_id_really_is() -> None:
    payload = _openai(
        [USER, _assistant(_call("c1")), _tool("c1"), USER, _assistant(_call("c2")), _tool("c1")]
    )
    (finding,) = PAYLOAD_CHECKS["pairing.orphan_result"](payload) or []
    assert finding.path == "messages[5]"
    assert "'c1' exists at messages[1].tool_calls[0]" in finding.message


def test_anthropic_ids_must_match_the_documented_pattern() -> None:
    payload = _anthropic(
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "call:1", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "call:1", "content": "ok"}],
            },
        ]
    )
    assert _codes(payload) == {"pairing.id_pattern": ["messages[1].content[0]"]}


def test_payloads_without_tool_traffic_are_not_judged() -> None:
    payload = _openai([USER])
    assert all(check(payload) is None for check in PAYLOAD_CHECKS.values())


def test_a_rewritten_id_is_id_changed_in_conversion_and_round_trip() -> None:
    source = _openai([USER, _assistant(_call("call_1")), _tool("call_1")])
    output = _anthropic(
        [
            {"role": "user", "content": "weather?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
            },
        ]
    )
    findings = CONVERSION_CHECKS["pairing.id_changed"](ConversionUnderTest(source, output)) or []
    # The call and the result that references it, renamed alike: one defect, one finding.
    assert [f.path for f in findings] == ["messages[1].content[0]"]
    assert findings[0].message == (
        "1 call id and 1 result reference renamed the same way throughout, first at "
        "messages[1].content[0]: 'call_1' became 'toolu_1', a mapping the adapter does not "
        "declare (its id_mapping)"
    )
    declared = ConversionUnderTest(source, output, id_mapping={"call_1": "toolu_1"})
    assert CONVERSION_CHECKS["pairing.id_changed"](declared) == []
    back = _openai([USER, _assistant(_call("call_2")), _tool("call_2")])
    assert ROUNDTRIP_CHECKS["pairing.id_changed"](
        RoundTripUnderTest(source, back, "anthropic-messages")
    )
    assert (
        ROUNDTRIP_CHECKS["pairing.id_changed"](
            RoundTripUnderTest(source, source, "anthropic-messages")
        )
        == []
    )


def _openai_rounds(call_ids: list[str]) -> Any:
    """One call and its result per id, in openai-chat."""
    rounds = [m for call_id in call_ids for m in (_assistant(_call(call_id)), _tool(call_id))]
    return _openai([USER, *rounds])


def _anthropic_rounds(pairs: list[tuple[str, str]]) -> Any:
    """The same in anthropic-messages: each call's id and its result's reference."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "weather?"}]
    for call_id, reference in pairs:
        tool_use = {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {}}
        result = {"type": "tool_result", "tool_use_id": reference, "content": "ok"}
        messages += [
            {"role": "assistant", "content": [tool_use]},
            {"role": "user", "content": [result]},
        ]
    return _anthropic(messages)


def test_one_rename_applied_throughout_is_one_finding_with_its_count() -> None:
    source = _openai_rounds(["call_1", "call_2", "call_3"])
    output = _anthropic_rounds([(f"toolu_{n}", f"toolu_{n}") for n in (1, 2, 3)])
    findings = CONVERSION_CHECKS["pairing.id_changed"](ConversionUnderTest(source, output)) or []
    assert len(findings) == 1
    assert findings[0].message.startswith(
        "3 call ids and 3 result references renamed the same way throughout, first at "
        "messages[1].content[0]: 'call_1' became 'toolu_1'"
    )


def test_renames_that_disagree_between_call_and_result_keep_a_finding_each() -> None:
    source = _openai_rounds(["call_1", "call_2"])
    # The second result references another new id than its call got.
    output = _anthropic_rounds([("toolu_1", "toolu_1"), ("toolu_2", "toolu_9")])
    findings = CONVERSION_CHECKS["pairing.id_changed"](ConversionUnderTest(source, output)) or []
    assert len(findings) == 4
    assert "carries 'toolu_1'; the source had 'call_1' there" in findings[0].message


def test_a_missing_id_on_call_and_result_is_reported_once() -> None:
    payload = _openai([USER, _assistant(_call("")), _tool("")])
    assert _codes(payload) == {"pairing.call_id_missing": ["messages[1].tool_calls[0]"]}


def test_an_id_reused_across_turns_is_a_duplicate_id_not_a_duplicate_result() -> None:
    payload = _openai(
        [
            USER,
            _assistant(_call("c1")),
            _tool("c1"),
            USER,
            _assistant(_call("c1")),
            _tool("c1"),
        ]
    )
    assert _codes(payload) == {"pairing.call_id_duplicate": ["messages[1].tool_calls[0]"]}


def test_response_findings_point_at_the_call_itself() -> None:
    from toolwire.harness.payloads import parse_payload

    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [_call("c1"), _call("c1", name="other")],
                },
            }
        ],
    }
    payload = parse_payload("openai-chat", "response", body, "openai")
    (duplicate,) = PAYLOAD_CHECKS["pairing.call_id_duplicate"](payload) or []
    assert duplicate.path == "choices[0].message.tool_calls[0]"
    assert "choices[0].message.tool_calls[1]" in duplicate.message


def test_reordered_calls_and_results_change_no_id() -> None:
    source = _openai([USER, _assistant(_call("a"), _call("b")), _tool("a"), _tool("b")])
    output = _openai([USER, _assistant(_call("b"), _call("a")), _tool("b"), _tool("a")])
    assert CONVERSION_CHECKS["pairing.id_changed"](ConversionUnderTest(source, output)) == []


def test_an_emptied_id_is_reported_as_missing_not_changed() -> None:
    source = _openai([USER, _assistant(_call("a")), _tool("a")])
    output = _openai([USER, _assistant(_call("")), _tool("")])
    # No id left to compare: no verdict of id_changed, and call_id_missing says why.
    assert CONVERSION_CHECKS["pairing.id_changed"](ConversionUnderTest(source, output)) is None
    assert _codes(output) == {"pairing.call_id_missing": ["messages[1].tool_calls[0]"]}


# --- a call the source answered stays answered, on the last turn too ------------

KEPT = CONVERSION_CHECKS["pairing.unanswered_call"]
ANTHROPIC_SOURCE = [
    USER,
    {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {}}],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "ok"}],
    },
]


def test_results_dropped_from_the_last_turn_are_found_through_the_source() -> None:
    source = _openai([USER, _assistant(_call("a")), _tool("a")])
    dropped = _openai([USER, _assistant(_call("a"))])
    # On its own, the output is a request that ends on a call the client has yet to run...
    assert PAYLOAD_CHECKS["pairing.unanswered_call"](dropped) is None
    # ...but the source had answered it.
    (found,) = KEPT(ConversionUnderTest(source, dropped)) or []
    assert found.path == "messages[1].tool_calls[0]"
    assert "answered in the source" in found.message
    across = _anthropic(ANTHROPIC_SOURCE[:2])
    assert [f.code for f in KEPT(ConversionUnderTest(source, across)) or []] == [
        "pairing.unanswered_call"
    ]


def test_a_kept_answer_passes_in_any_form_and_a_lost_call_is_not_judged_here() -> None:
    source = _openai([USER, _assistant(_call("a")), _tool("a")])
    assert KEPT(ConversionUnderTest(source, _anthropic(ANTHROPIC_SOURCE))) == []
    renamed = _openai([USER, _assistant(_call("b")), _tool("b")])
    assert KEPT(ConversionUnderTest(source, renamed, id_mapping={"a": "b"})) == []
    # The call itself gone: fidelity.arguments reports the lost call; nothing to judge here.
    assert KEPT(ConversionUnderTest(source, _openai([USER]))) is None
    # A source that leaves the call open, or has none: nothing answered to keep.
    assert KEPT(ConversionUnderTest(_openai([USER, _assistant(_call("a"))]), source)) is None
    assert KEPT(ConversionUnderTest(_openai([USER]), _openai([USER]))) is None


def test_a_result_flattened_into_text_leaves_its_call_unanswered() -> None:
    flattened = _anthropic(
        [*ANTHROPIC_SOURCE[:2], {"role": "user", "content": "Result of toolu_a: ok"}]
    )
    assert "pairing.unanswered_call" in _codes(flattened)


def _responses_call(name: str) -> PayloadUnderTest:
    body = {
        "model": "m",
        "input": [
            {"role": "user", "content": "weather?"},
            {"type": "function_call", "call_id": "call_1", "name": name, "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        ],
    }
    return parse_payload("openai-responses", "request", body, "openai-responses")


def test_responses_names_are_held_to_128_characters_not_to_chats_64() -> None:
    # Responses accepts names up to 128 (openai/codex#20724); Chat documents 64.
    long_name = "n" * 100
    assert _codes(_responses_call(long_name)) == {}
    assert _codes(_openai([USER, _assistant(_call("c1", long_name)), _tool("c1")])) == {
        "pairing.id_pattern": ["messages[1].tool_calls[0]"]
    }
    assert "pairing.id_pattern" in _codes(_responses_call("n" * 129))
    assert "pairing.id_pattern" in _codes(_responses_call("get.weather"))


def test_id_pattern_fix_covers_every_target_the_check_judges() -> None:
    """The fix text names, for each dialect, the name pattern the check holds
    it to, and the id pattern of the one dialect whose ids it judges."""
    fix = id_pattern.ID_PATTERN.fix
    assert f"anthropic-messages, which accepts `{id_pattern.ANTHROPIC_ID.pattern}`" in fix
    for dialect in DIALECTS:
        pattern = id_pattern._NAME_PATTERNS.get(dialect, id_pattern.OPENAI_NAME).pattern
        named = fix[fix.index(dialect, fix.index("Tool names")) :]
        assert named.split("`")[1] == pattern, dialect
