"""A long conversation is judged like a short one, and its defects are found where they are.

The pairing and ordering rules read one timeline per conversation
(toolwire.conformance.readings.timeline) instead of rescanning it per result: these tests pin
that the verdicts did not change with it. No timing here: speed is measured
by benchmarks/length.py, not asserted.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.conformance.context import ConversionUnderTest
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.conformance.registry import CONVERSION_CHECKS, PAYLOAD_CHECKS
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.engine.runner import run_case
from toolwire.harness.fuzz.cases import plan_case
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT
from toolwire.harness.payloads import parse_payload
from toolwire.harness.strategies.plan import weather_rounds
from toolwire.harness.strategies.render import render_request

LONG_ROUNDS = 667  # openai-chat: 1 + 3 x 667 = 2,002 messages


def verdict_summary(dialect: str, rounds: int) -> dict[str, tuple[str, tuple[str, ...]]]:
    case = plan_case(weather_rounds(dialect, rounds), case_id=f"long/{dialect}-{rounds}")
    verdicts = run_case(case, load_adapter("reference"))
    return {v.rule_code: (v.outcome, v.directions) for v in verdicts}


@pytest.mark.parametrize("dialect", [OPENAI_CHAT, ANTHROPIC_MESSAGES])
def test_a_long_conversation_gets_the_verdicts_of_a_short_one(dialect: str) -> None:
    short = verdict_summary(dialect, 2)
    long = verdict_summary(dialect, LONG_ROUNDS)
    assert long == short
    # The comparison means something: the pairing and ordering rules judged it.
    assert long["pairing.orphan_result"][0] == "pass"
    # Judged in the openai-chat output (anthropic source), the gemini output
    # (both sources) and the openai-responses output (openai-chat source); an
    # anthropic output under the merging `anthropic` profile has one message
    # after the calls: nothing to misplace.
    assert long["ordering.result_not_adjacent"][0] == "pass"
    assert long["ordering.result_order"][0] == "pass"


def judge(request: dict[str, Any], dialect: str, code: str) -> list[Any] | None:
    payload = parse_payload(dialect, "request", request, DEFAULT_PROFILE[dialect])
    return PAYLOAD_CHECKS[code](payload)


def long_openai_request() -> dict[str, Any]:
    request = render_request(weather_rounds(OPENAI_CHAT, LONG_ROUNDS))
    assert len(request["messages"]) == 1 + 3 * LONG_ROUNDS  # round k: messages 1+3k to 3+3k
    return request


def test_results_swapped_deep_in_a_long_conversation_are_reported_there() -> None:
    source = long_openai_request()
    request = long_openai_request()
    messages = request["messages"]
    # Round 400: the assistant message at 1201, its two tool messages at 1202, 1203.
    messages[1202], messages[1203] = messages[1203], messages[1202]
    profile = DEFAULT_PROFILE[OPENAI_CHAT]
    conversion = ConversionUnderTest(
        source=parse_payload(OPENAI_CHAT, "request", source, profile),
        output=parse_payload(OPENAI_CHAT, "request", request, profile),
    )
    found = CONVERSION_CHECKS["ordering.result_order"](conversion)
    assert found is not None and len(found) == 1
    assert found[0].path == "messages[1202]"
    assert "'call_400_1'" in found[0].message and "messages[1201]" in found[0].message
    assert judge(request, OPENAI_CHAT, "pairing.orphan_result") == []


def test_an_orphan_result_near_the_end_of_a_long_conversation_is_reported_there() -> None:
    request = long_openai_request()
    request["messages"][1997]["tool_call_id"] = "call_3_0"  # round 665 answers round 3
    found = judge(request, OPENAI_CHAT, "pairing.orphan_result")
    assert found is not None and len(found) == 1
    assert found[0].path == "messages[1997]"
    assert "'call_3_0' exists at messages[10].tool_calls[0]" in found[0].message
    # The call it should have answered now has none: one code per defect.
    unanswered = judge(request, OPENAI_CHAT, "pairing.unanswered_call")
    assert unanswered is not None and [f.path for f in unanswered] == [
        "messages[1996].tool_calls[0]"
    ]


def test_a_text_message_inside_a_long_conversations_window_is_not_adjacent() -> None:
    request = long_openai_request()
    # A user message between round 250's assistant message (751) and its results.
    request["messages"].insert(752, {"role": "user", "content": "hurry up"})
    found = judge(request, OPENAI_CHAT, "ordering.result_not_adjacent")
    assert found is not None
    assert [f.path for f in found] == ["messages[753]", "messages[754]"]
