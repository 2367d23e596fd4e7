"""``toolwire.harness.strategies``: every generated payload is valid; the mix covers the
corpus features."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Callable
from random import Random

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from toolwire.harness.corpus.writer import case_metadata, dump_case
from toolwire.harness.dialects import get_codec
from toolwire.harness.fuzz.cases import plan_case
from toolwire.harness.lint.check import lint_text
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    DIALECTS,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    QWEN_XML,
)
from toolwire.harness.strategies import exchange_plans, exchanges, requests
from toolwire.harness.strategies.plan import AssistantPlan, ExchangePlan, UserPlan
from toolwire.harness.strategies.render import render_request, render_response, render_stream

GENERATED = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Find an example that shows something, without shrinking it (shrinking is
# tested where it matters: tests/fuzz/test_fuzz_engine.py).
FIND = settings(
    max_examples=2000,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def cassette_of(plan: ExchangePlan) -> str:
    case = plan_case(plan)
    return dump_case(case_metadata(case), case.interactions)


def _lint_clean(dialect: str) -> Callable[[ExchangePlan], None]:
    def check(plan: ExchangePlan) -> None:
        assert plan.dialect == dialect
        violations = lint_text(cassette_of(plan), "generated.yaml")
        must = [v.line() for v in violations if v.level == "MUST"]
        assert must == []

    return check


@GENERATED
@given(plan=exchange_plans(OPENAI_CHAT))
def test_generated_openai_chat_exchanges_pass_lint(plan: ExchangePlan) -> None:
    _lint_clean(OPENAI_CHAT)(plan)


@GENERATED
@given(plan=exchange_plans(ANTHROPIC_MESSAGES))
def test_generated_anthropic_exchanges_pass_lint(plan: ExchangePlan) -> None:
    _lint_clean(ANTHROPIC_MESSAGES)(plan)


@GENERATED
@given(plan=exchange_plans(DEEPSEEK_CHAT))
def test_generated_deepseek_exchanges_pass_lint(plan: ExchangePlan) -> None:
    _lint_clean(DEEPSEEK_CHAT)(plan)


@GENERATED
@given(plan=exchange_plans(QWEN_XML))
def test_generated_qwen_exchanges_pass_lint(plan: ExchangePlan) -> None:
    _lint_clean(QWEN_XML)(plan)


@GENERATED
@given(plan=exchange_plans(OPENAI_RESPONSES))
def test_generated_responses_exchanges_pass_lint(plan: ExchangePlan) -> None:
    _lint_clean(OPENAI_RESPONSES)(plan)


@pytest.mark.parametrize("dialect", DIALECTS)
@GENERATED
@given(data=st.data())
def test_codecs_render_what_they_parse_unchanged(dialect: str, data: st.DataObject) -> None:
    plan, request, answer = data.draw(exchanges(dialect))
    codec = get_codec(dialect)
    assert codec.render_request(codec.parse_request(request)) == request
    if not plan.stream:
        assert codec.render_response(codec.parse_response(answer)) == answer


@pytest.mark.parametrize("dialect", DIALECTS)
@GENERATED
@given(data=st.data())
def test_plans_keep_their_own_promises(dialect: str, data: st.DataObject) -> None:
    plan = data.draw(exchange_plans(dialect))
    ids = [call.id for call in plan.calls]
    assert len(ids) == len(set(ids)), "call ids are unique"
    for call in plan.calls:
        tool = plan.tool(call.name)
        assert tool is not None
        jsonschema.validate(dict(call.arguments), dict(tool.parameters))
    turns = plan.turns
    assert isinstance(turns[0], UserPlan) and isinstance(turns[-1], UserPlan)
    for before, after in itertools.pairwise(turns):
        if isinstance(before, AssistantPlan) and before.calls:
            assert isinstance(after, UserPlan)
            assert [r.call_id for r in after.results] == [c.id for c in before.calls]
    choice = plan.tool_choice
    if choice is not None and choice.kind == "none":
        assert plan.answer.calls == ()
    if choice is not None and choice.kind == "tool":
        assert {call.name for call in plan.answer.calls} == {choice.name}
    if choice is not None and not choice.parallel:
        assert all(len(t.calls) <= 1 for t in (*turns, plan.answer) if isinstance(t, AssistantPlan))
    if plan.cut is None:
        assert (plan.stop == "tool_use") == bool(plan.answer.calls)
    else:  # a Qwen answer cut off inside its last call: stopped by max_tokens
        assert plan.dialect == QWEN_XML and plan.answer.calls and plan.stop == "max_tokens"


def _features(plan: ExchangePlan) -> tuple[str, ...]:
    return plan_case(plan).features


def _has(predicate: Callable[[AssistantPlan], bool]) -> Callable[[ExchangePlan], bool]:
    def check(plan: ExchangePlan) -> bool:
        turns = [t for t in plan.turns if isinstance(t, AssistantPlan)]
        return any(predicate(turn) for turn in (*turns, plan.answer))

    return check


# (dialect, what the plan must show, the corpus feature the case must then have)
FEATURE_EXAMPLES = [
    (OPENAI_CHAT, _has(lambda t: len(t.calls) >= 2), "parallel"),
    (ANTHROPIC_MESSAGES, _has(lambda t: bool(t.calls and t.text_after)), "mixed-text"),
    (OPENAI_CHAT, lambda p: any(r.is_error for r in p.results), "error-result"),
    (ANTHROPIC_MESSAGES, lambda p: any(r.is_error for r in p.results), "error-result"),
    (
        ANTHROPIC_MESSAGES,
        _has(lambda t: any(r.kind == "thinking" for r in t.reasoning)),
        "thinking",
    ),
    (
        ANTHROPIC_MESSAGES,
        _has(lambda t: any(r.kind == "redacted" for r in t.reasoning)),
        "thinking",
    ),
    (
        DEEPSEEK_CHAT,
        lambda p: any(isinstance(t, AssistantPlan) and t.calls for t in p.turns),
        "reasoning-replay",
    ),
    (QWEN_XML, lambda p: len(p.answer.calls) >= 2, "qwen-xml"),
    (ANTHROPIC_MESSAGES, lambda p: p.stream and len(p.answer.calls) >= 2, "streaming"),
    (OPENAI_CHAT, lambda p: p.stream and bool(p.fragments) and bool(p.answer.calls), "streaming"),
]


@pytest.mark.parametrize(("dialect", "shows", "feature"), FEATURE_EXAMPLES)
def test_the_mix_covers_the_corpus_features(
    dialect: str, shows: Callable[[ExchangePlan], bool], feature: str
) -> None:
    plan = find(exchange_plans(dialect), shows, settings=FIND, random=Random(0))
    assert shows(plan)
    assert feature in _features(plan)


def test_anthropic_thinking_opens_every_assistant_turn() -> None:
    plan = find(
        exchange_plans(ANTHROPIC_MESSAGES, reasoning=True),
        lambda p: len(p.turns) >= 3,
        settings=FIND,
        random=Random(0),
    )
    for turn in (*plan.turns, plan.answer):
        if isinstance(turn, AssistantPlan):
            assert turn.reasoning, "extended thinking: every assistant turn starts with thinking"
    request = render_request(plan)
    assert request["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    first_blocks = [
        m["content"][0]["type"] for m in request["messages"] if m["role"] == "assistant"
    ]
    assert set(first_blocks) <= {"thinking", "redacted_thinking"}


def test_qwen_answers_carry_calls_as_xml_text_and_history_as_tool_calls() -> None:
    plan = find(
        exchange_plans(QWEN_XML, stream=False),
        lambda p: (
            bool(p.answer.calls) and any(isinstance(t, AssistantPlan) and t.calls for t in p.turns)
        ),
        settings=FIND,
        random=Random(0),
    )
    message = render_response(plan)["choices"][0]["message"]
    assert "<tool_call>" in message["content"] and "tool_calls" not in message
    history = [m for m in render_request(plan)["messages"] if m["role"] == "assistant"]
    assert any(m.get("tool_calls") for m in history)


def test_streams_are_cut_into_the_planned_pieces() -> None:
    plan = find(
        exchange_plans(OPENAI_CHAT, stream=True),
        lambda p: p.fragments == (1,) and p.answer.text_before is not None,
        settings=FIND,
        random=Random(0),
    )
    assert plan.answer.text_before is not None
    pieces = [
        event["data"]["choices"][0]["delta"]["content"]
        for event in render_stream(plan)
        if isinstance(event["data"], dict)
        and event["data"].get("choices")
        and "content" in event["data"]["choices"][0]["delta"]
        and "role" not in event["data"]["choices"][0]["delta"]
    ]
    assert pieces == list(plan.answer.text_before)


@GENERATED
@given(body=requests(ANTHROPIC_MESSAGES))
def test_public_request_strategy_draws_bodies(body: dict[str, object]) -> None:
    assert body["model"] and body["messages"] and "max_tokens" in body


def test_unknown_dialect_is_refused_with_the_valid_names() -> None:
    with pytest.raises(ValueError, match="openai-chat"):
        exchange_plans("openai")


def test_importing_harness_does_not_import_hypothesis() -> None:
    code = (
        "import sys, toolwire.harness, toolwire.harness.cli.main, toolwire.harness.engine.runner;"
        "import toolwire.harness.pytest_plugin;"
        "print('hypothesis' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_a_cut_qwen_answer_leaves_its_last_call_unfinished() -> None:
    plan = find(
        exchange_plans(QWEN_XML, stream=False),
        lambda p: p.cut is not None and len(p.answer.calls) >= 2,
        settings=FIND,
        random=Random(0),
    )
    response = render_response(plan)
    assert response["choices"][0]["finish_reason"] == "length"
    parsed = get_codec(QWEN_XML).parse_response(
        response, tools=plan_case(plan).interactions and None
    )
    kinds = [type(block).__name__ for block in parsed.message.blocks]
    assert kinds.count("ToolCall") == len(plan.answer.calls) - 1
    # The unfinished call: rejected, never executed. A cut inside its closing
    # tag leaves that tag's start as text after the rejected markup.
    rejected = len(kinds) - 1 - kinds[::-1].index("OpaqueBlock")
    assert rejected > len(kinds) - 1 - kinds[::-1].index("ToolCall")
    assert set(kinds[rejected + 1 :]) <= {"TextBlock"}
