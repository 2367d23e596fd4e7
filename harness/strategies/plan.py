"""A dialect-neutral plan of one generated exchange: what the conversation says.

The Hypothesis strategies (``toolwire.harness.strategies.draw``) draw a plan; the
renderer (``toolwire.harness.strategies.render``) writes it in a dialect. Keeping the
plan apart from any dialect means one plan describes the same conversation
everywhere, and a shrunk plan reads as a short story: "a user asks, the
assistant makes two calls, one result is an error".

This module is plain data (no Hypothesis import), so the fuzz engine and
user code can build plans by hand too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    QWEN_XML,
)

ReasoningKind: TypeAlias = Literal["thinking", "redacted"]
StopKind: TypeAlias = Literal["end_turn", "tool_use", "max_tokens"]
ChoiceKind: TypeAlias = Literal["auto", "none", "required", "tool"]

# The model each dialect's generated requests name.
MODELS: dict[str, str] = {
    OPENAI_CHAT: "gpt-4o",
    ANTHROPIC_MESSAGES: "claude-sonnet-4-5",
    DEEPSEEK_CHAT: "deepseek-chat",
    QWEN_XML: "Qwen/Qwen3-Coder-30B-A3B-Instruct",
    GEMINI: "gemini-2.5-flash",
    OPENAI_RESPONSES: "gpt-4.1",
}


@dataclass(frozen=True)
class ToolPlan:
    """A tool: ``parameters`` is its JSON Schema (an object schema)."""

    name: str
    description: str | None
    parameters: Mapping[str, Any]


@dataclass(frozen=True)
class CallPlan:
    """One tool call. ``id`` is the id a dialect with ids carries (Qwen XML
    markup carries none; its results still link by this id on the wire)."""

    id: str
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class ResultPlan:
    """The answer to ``call_id``; ``is_error`` marks a failed tool."""

    call_id: str
    text: str
    is_error: bool = False


@dataclass(frozen=True)
class ReasoningPlan:
    """Reasoning before the visible text: Anthropic ``thinking`` (text and
    signature) or ``redacted_thinking`` (opaque data in ``text``), DeepSeek
    ``reasoning_content`` (text only)."""

    kind: ReasoningKind
    text: str
    signature: str = ""


@dataclass(frozen=True)
class AssistantPlan:
    """An assistant turn: reasoning first, then text, calls, then text.

    ``text_after`` is only drawn for dialects that can place text after a
    call (anthropic-messages)."""

    reasoning: tuple[ReasoningPlan, ...] = ()
    text_before: str | None = None
    calls: tuple[CallPlan, ...] = ()
    text_after: str | None = None


@dataclass(frozen=True)
class UserPlan:
    """A user turn: the results of the previous assistant turn's calls (in
    call order), then text. At least one of them is present."""

    results: tuple[ResultPlan, ...] = ()
    text: str | None = None


TurnPlan: TypeAlias = UserPlan | AssistantPlan


@dataclass(frozen=True)
class ToolChoicePlan:
    """``tool_choice``: ``name`` for kind ``tool``; ``parallel`` False
    disables parallel calls (openai ``parallel_tool_calls``, anthropic
    ``disable_parallel_tool_use``)."""

    kind: ChoiceKind
    name: str | None = None
    parallel: bool = True


@dataclass(frozen=True)
class ExchangePlan:
    """One request (history ending with a user turn) and the assistant's answer.

    ``reasoning`` says whether the conversation runs with reasoning on
    (Anthropic extended thinking, DeepSeek thinking mode): then every
    assistant turn, the answer included, carries reasoning. ``stream`` asks
    for the answer as an event stream, split into pieces of the sizes in
    ``fragments`` (cycled; empty: one piece per field).
    """

    dialect: str
    model: str
    tools: tuple[ToolPlan, ...]
    turns: tuple[TurnPlan, ...]
    answer: AssistantPlan
    stop: StopKind
    system: str | None = None
    tool_choice: ToolChoicePlan | None = None
    reasoning: bool = False
    stream: bool = False
    fragments: tuple[int, ...] = ()
    # The output limit: None sends none (Anthropic requires one, so its
    # plans always have it); ``limit_field`` names the field that carries it.
    max_tokens: int | None = 4096
    limit_field: str = "max_tokens"
    # Send user text and tool results as lists of text blocks (parts) rather
    # than strings: both forms are documented, clients use both.
    content_parts: bool = False
    # qwen-xml only: the answer was cut off by max_tokens inside its last call,
    # after this many characters of that call's markup (real outputs are;
    # WIRE.md 1.4). The call is then malformed and must never be executed.
    cut: int | None = None
    usage: tuple[int, int] = (10, 5)
    response_id: str = "resp_0"
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def calls(self) -> tuple[CallPlan, ...]:
        """Every call of the exchange, history then answer."""
        found = [c for t in self.turns if isinstance(t, AssistantPlan) for c in t.calls]
        return (*found, *self.answer.calls)

    @property
    def results(self) -> tuple[ResultPlan, ...]:
        return tuple(r for t in self.turns if isinstance(t, UserPlan) for r in t.results)

    def tool(self, name: str) -> ToolPlan | None:
        return next((tool for tool in self.tools if tool.name == name), None)


WEATHER_TOOL = ToolPlan(
    "get_weather", None, {"type": "object", "properties": {"city": {"type": "string"}}}
)


def weather_rounds(dialect: str, rounds: int) -> ExchangePlan:
    """A tool loop of ``rounds`` rounds, each an assistant turn with two
    calls and then their results, answered in text: a conversation as long
    as asked (openai-chat: 1 + 3 x ``rounds`` messages), for tests and
    benchmarks of long conversations."""
    turns: list[TurnPlan] = [UserPlan(text="Weather in two cities, please, every day.")]
    for number in range(rounds):
        calls = tuple(
            CallPlan(f"call_{number}_{i}", WEATHER_TOOL.name, {"city": city})
            for i, city in enumerate(("Paris", "Tokyo"))
        )
        results = tuple(ResultPlan(call.id, f"sunny in {call.arguments['city']}") for call in calls)
        turns += [AssistantPlan(text_before="Checking.", calls=calls), UserPlan(results=results)]
    return ExchangePlan(
        dialect=dialect,
        model=MODELS[dialect],
        tools=(WEATHER_TOOL,),
        turns=tuple(turns),
        answer=AssistantPlan(text_before="Both sunny."),
        stop="end_turn",
    )
