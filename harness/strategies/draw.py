"""The Hypothesis strategy for whole exchanges: ``exchange_plans(dialect)``.

A plan is drawn round by round, so that every drawn conversation is valid
in its dialect by construction (WIRE.md):

* it opens with a user message and ends with a user turn (text, or the
  results of the last calls: an open tool loop);
* each assistant turn with calls is answered, in the next user turn, by one
  result per call in call order, some of them errors; text may follow the
  results;
* ids are unique and legal for the dialect; arguments fit the tool's schema;
* reasoning, where on, opens every assistant turn: Anthropic ``thinking``
  (with signature) or ``redacted_thinking``, DeepSeek ``reasoning_content``
  (thinking mode: sent back on every turn, ``""`` included);
* text after a call only in anthropic-messages; Qwen XML text only before
  the calls (the markup is written by the codec);
* ``tool_choice`` and the answer agree (``none``: no call; ``tool``: only
  that tool; parallel calls disabled: at most one call per turn); with
  Anthropic extended thinking only ``auto`` and ``none`` (documented).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import strategies as st

from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    DIALECTS,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    QWEN_XML,
)
from toolwire.harness.strategies.plan import (
    MODELS,
    AssistantPlan,
    CallPlan,
    ExchangePlan,
    ReasoningPlan,
    ResultPlan,
    StopKind,
    ToolChoicePlan,
    ToolPlan,
    TurnPlan,
    UserPlan,
)
from toolwire.harness.strategies.values import (
    arguments_for,
    id_makers,
    make_id,
    opaque_tokens,
    raw_text,
    texts,
    tool_lists,
)

MAX_CALLS = 3  # per assistant turn


@dataclass(frozen=True)
class _Context:
    """What every turn of one conversation shares while it is drawn."""

    dialect: str
    tools: tuple[ToolPlan, ...]
    reasoning: bool
    id_form: str
    max_calls: int


class _Ids:
    """Hands out unique call ids in the conversation's id form."""

    def __init__(self, form: str) -> None:
        self.form = form
        self.count = 0

    def next(self, name: str) -> str:
        self.count += 1
        return make_id(self.form, self.count, name)


def exchange_plans(
    dialect: str,
    *,
    stream: bool | None = None,
    reasoning: bool | None = None,
    max_rounds: int = 3,
) -> st.SearchStrategy[ExchangePlan]:
    """Valid exchanges in ``dialect``: a request and the answer to it.

    ``stream`` and ``reasoning`` fix those choices (``None``: drawn);
    ``max_rounds`` bounds the assistant turns of the history.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; use one of: {', '.join(DIALECTS)}")
    return _exchange_plans(dialect, stream, reasoning, max_rounds)


@st.composite
def _exchange_plans(
    draw: st.DrawFn, dialect: str, stream: bool | None, reasoning: bool | None, max_rounds: int
) -> ExchangePlan:
    tools = tuple(draw(tool_lists(dialect)))
    thinking = _reasoning_flag(draw, dialect, reasoning)
    choice = draw(st.one_of(st.none(), _tool_choices(tools, dialect, thinking)))
    parallel = choice is None or choice.parallel
    context = _Context(
        dialect, tools, thinking, draw(id_makers(dialect)), MAX_CALLS if parallel else 1
    )
    ids = _Ids(context.id_form)
    turns: list[TurnPlan] = [UserPlan(text=draw(texts(dialect)))]
    # Each round is one list element, so shrinking can drop any round whole.
    for round_turns in draw(st.lists(_round(context, ids), max_size=max_rounds)):
        turns += round_turns
    answer = draw(_answer(context, ids, choice))
    cut = draw(st.one_of(st.none(), st.integers(1, 400))) if _can_cut(dialect, answer) else None
    stop: StopKind = "max_tokens" if cut is not None else "tool_use"
    if not answer.calls:
        stop = draw(st.sampled_from(("end_turn", "max_tokens")))
    streamed = draw(st.booleans()) if stream is None else stream
    return ExchangePlan(
        dialect=dialect,
        model=MODELS[dialect],
        tools=tools,
        turns=tuple(turns),
        answer=answer,
        stop=stop,
        system=draw(optional_texts(dialect)),
        tool_choice=choice,
        reasoning=thinking,
        stream=streamed,
        fragments=tuple(draw(st.lists(st.integers(1, 12), max_size=3))) if streamed else (),
        max_tokens=draw(_limits(dialect)),
        limit_field=draw(_limit_fields(dialect)),
        # DeepSeek documents message content as a string only.
        content_parts=dialect != DEEPSEEK_CHAT and draw(st.booleans()),
        cut=cut,
        usage=(draw(st.integers(1, 5000)), draw(st.integers(1, 2000))),
        response_id=draw(st.from_regex(r"[0-9a-f]{1,24}", fullmatch=True)),
    )


def _can_cut(dialect: str, answer: AssistantPlan) -> bool:
    return dialect == QWEN_XML and bool(answer.calls)


def _limits(dialect: str) -> st.SearchStrategy[int | None]:
    limit = st.integers(2048, 8192)
    # Anthropic requires max_tokens; Chat Completions requests often send none.
    return limit if dialect == ANTHROPIC_MESSAGES else st.one_of(limit, st.none())


def _limit_fields(dialect: str) -> st.SearchStrategy[str]:
    # OpenAI deprecated max_tokens for max_completion_tokens; both are sent.
    if dialect == OPENAI_CHAT:
        return st.sampled_from(("max_tokens", "max_completion_tokens"))
    if dialect == OPENAI_RESPONSES:
        return st.just("max_output_tokens")
    return st.just("max_tokens")


def _reasoning_flag(draw: st.DrawFn, dialect: str, wanted: bool | None) -> bool:
    if dialect == DEEPSEEK_CHAT:
        # The deepseek-chat profile is thinking mode: reasoning replay is required.
        return True
    if dialect != ANTHROPIC_MESSAGES:
        return False
    return draw(st.booleans()) if wanted is None else wanted


def _tool_choices(
    tools: tuple[ToolPlan, ...], dialect: str, thinking: bool
) -> st.SearchStrategy[ToolChoicePlan]:
    # Extended thinking supports only auto and none (Anthropic extended-thinking
    # docs, "tool use"); DeepSeek thinking mode is kept to the same pair.
    kinds = ("auto", "none") if thinking else ("auto", "none", "required", "tool")
    names = st.sampled_from([tool.name for tool in tools])
    # Gemini has no switch that disables parallel calls.
    return st.builds(
        lambda kind, name, parallel: ToolChoicePlan(
            kind, name if kind == "tool" else None, parallel or kind == "none" or dialect == GEMINI
        ),
        st.sampled_from(kinds),
        names,
        st.booleans(),
    )


@functools.cache
def optional_texts(dialect: str) -> st.SearchStrategy[str | None]:
    return st.one_of(st.none(), texts(dialect))


@st.composite
def _round(draw: st.DrawFn, context: _Context, ids: _Ids) -> tuple[AssistantPlan, UserPlan]:
    """An assistant turn and the user turn after it.

    A tool round is the "simplest" choice, so shrinking keeps tool rounds
    and turns chat rounds into them: most rules need a call and its result.
    """
    dialect = context.dialect
    if not draw(st.booleans()):
        assistant = draw(_assistant(context, ids, min_calls=1))
        results = tuple(_result(draw, dialect, call.id) for call in assistant.calls)
        return assistant, UserPlan(results=results, text=draw(optional_texts(dialect)))
    return draw(_assistant(context, ids, max_calls=0)), UserPlan(text=draw(texts(dialect)))


def _result(draw: st.DrawFn, dialect: str, call_id: str) -> ResultPlan:
    is_error = draw(st.booleans())
    return ResultPlan(call_id, draw(_result_texts(dialect, is_error)), is_error)


@functools.cache
def _result_texts(dialect: str, is_error: bool) -> st.SearchStrategy[str]:
    """Result text: any text, a successful one starting with the ``Error:``
    marker included (docs/conventions.md: through openai-chat it reads as
    failed, which the rules accept)."""
    if is_error:
        # Never empty: Anthropic rejects a failed result without content.
        return texts(dialect)
    return raw_text(dialect)


@functools.cache
def _reasoning_blocks(dialect: str) -> st.SearchStrategy[tuple[ReasoningPlan, ...]]:
    if dialect == DEEPSEEK_CHAT:
        # reasoning_content: the text returned, "" included (WIRE.md 1.3).
        text = st.one_of(st.just(""), texts(dialect))
        return st.tuples(st.builds(ReasoningPlan, st.just("thinking"), text))
    signed = st.builds(ReasoningPlan, st.just("thinking"), texts(dialect), opaque_tokens())
    redacted = st.builds(ReasoningPlan, st.just("redacted"), opaque_tokens())
    return st.lists(st.one_of(signed, redacted), min_size=1, max_size=2).map(tuple)


@st.composite
def _calls(
    draw: st.DrawFn, context: _Context, ids: _Ids, minimum: int, maximum: int, only: str | None
) -> tuple[CallPlan, ...]:
    candidates = [t for t in context.tools if only is None or t.name == only]
    # sampled_from draws evenly (integers() leans to the low end) and still
    # shrinks towards the fewest calls.
    count = draw(st.sampled_from(range(minimum, max(minimum, min(maximum, context.max_calls)) + 1)))
    calls = []
    for _ in range(count):
        tool = draw(st.sampled_from(candidates))
        arguments = draw(arguments_for(tool, context.dialect))
        calls.append(CallPlan(ids.next(tool.name), tool.name, arguments))
    return tuple(calls)


@st.composite
def _assistant(
    draw: st.DrawFn,
    context: _Context,
    ids: _Ids,
    min_calls: int = 0,
    max_calls: int = MAX_CALLS,
    only: str | None = None,
) -> AssistantPlan:
    dialect = context.dialect
    reasoning = draw(_reasoning_blocks(dialect)) if context.reasoning else ()
    calls = draw(_calls(context, ids, min_calls, max_calls, only)) if max_calls else ()
    before = draw(optional_texts(dialect)) if calls else draw(texts(dialect))
    text_after = dialect in (ANTHROPIC_MESSAGES, GEMINI)  # parts/blocks keep their order
    after = draw(optional_texts(dialect)) if calls and text_after else None
    return AssistantPlan(reasoning, before, calls, after)


def _answer(
    context: _Context, ids: _Ids, choice: ToolChoicePlan | None
) -> st.SearchStrategy[AssistantPlan]:
    if choice is not None and choice.kind == "none":
        return _assistant(context, ids, max_calls=0)
    if choice is not None and choice.kind in ("required", "tool"):
        return _assistant(context, ids, min_calls=1, only=choice.name)
    # auto: 0 to MAX_CALLS calls, evenly, so half of the answers are parallel.
    return _assistant(context, ids)
