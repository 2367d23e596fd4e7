"""Where every tool call and tool result sits in a conversation.

Pairing and ordering rules both walk the same structure: each assistant turn
that makes calls, and the turns that follow it up to the next assistant turn
(the *answer window*: where its results belong in every dialect).

``timeline_of`` builds that structure in one pass over the turns, once per
conversation (``toolwire.conformance.readings.memo``): a dozen checks read it for each payload,
and rebuilding it per result made long conversations quadratic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from toolwire.conformance.readings.memo import by_identity
from toolwire.harness.model import Conversation, ToolCall, ToolResult

ASSISTANT_ROLES = frozenset({"assistant", "model"})


@dataclass(frozen=True)
class CallSite:
    call: ToolCall
    turn_index: int
    block_index: int


@dataclass(frozen=True)
class ResultSite:
    result: ToolResult
    turn_index: int
    block_index: int


@dataclass(frozen=True)
class CallTurn:
    """An assistant turn that makes calls, and the turns that may answer them."""

    turn_index: int
    calls: tuple[CallSite, ...]
    # Turn indices after this turn, up to (not including) the next assistant turn.
    window: tuple[int, ...]
    is_last_turn: bool


@dataclass(frozen=True)
class Timeline:
    """Every call and result site of one conversation, indexed once."""

    calls: tuple[CallSite, ...]
    results: tuple[ResultSite, ...]
    call_turns: tuple[CallTurn, ...]
    # Turn index -> the call turn whose answer window holds it.
    owners: Mapping[int, CallTurn]
    # Turn index -> the result sites in that turn, in block order.
    results_by_turn: Mapping[int, tuple[ResultSite, ...]]

    def answers(self, call_turn: CallTurn) -> list[ResultSite]:
        """The results in ``call_turn``'s window that answer one of its calls
        (the first answer per id), in wire order."""
        offered = {site.call.id for site in call_turn.calls if site.call.id}
        seen: set[str] = set()
        found = []
        for index in call_turn.window:
            for site in self.results_by_turn.get(index, ()):
                call_id = site.result.call_id
                if call_id in offered and call_id not in seen:
                    seen.add(call_id)
                    found.append(site)
        return found


def _build(conversation: Conversation) -> Timeline:
    turns = conversation.turns
    calls: list[CallSite] = []
    results: list[ResultSite] = []
    calls_by_turn: dict[int, list[CallSite]] = {}
    results_by_turn: dict[int, list[ResultSite]] = {}
    assistants: list[int] = []
    for t, turn in enumerate(turns):
        if turn.role in ASSISTANT_ROLES:
            assistants.append(t)
        for b, block in enumerate(turn.blocks):
            if isinstance(block, ToolCall):
                call = CallSite(block, t, b)
                calls.append(call)
                calls_by_turn.setdefault(t, []).append(call)
            elif isinstance(block, ToolResult):
                result = ResultSite(block, t, b)
                results.append(result)
                results_by_turn.setdefault(t, []).append(result)
    call_turns = []
    owners: dict[int, CallTurn] = {}
    for position, index in enumerate(assistants):
        if index not in calls_by_turn:
            continue
        end = assistants[position + 1] if position + 1 < len(assistants) else len(turns)
        window = tuple(range(index + 1, end))
        call_turn = CallTurn(index, tuple(calls_by_turn[index]), window, index == len(turns) - 1)
        call_turns.append(call_turn)
        owners.update(dict.fromkeys(call_turn.window, call_turn))
    return Timeline(
        tuple(calls),
        tuple(results),
        tuple(call_turns),
        MappingProxyType(owners),
        MappingProxyType({turn: tuple(sites) for turn, sites in results_by_turn.items()}),
    )


@by_identity
def timeline_of(conversation: Conversation) -> Timeline:
    """The conversation's timeline, built once for the checks that read it."""
    return _build(conversation)


def result_sites(conversation: Conversation) -> list[ResultSite]:
    return list(timeline_of(conversation).results)


def call_turns(conversation: Conversation) -> list[CallTurn]:
    """Every assistant turn that makes calls, with its answer window."""
    return list(timeline_of(conversation).call_turns)


def call_turn_by_window(conversation: Conversation) -> dict[int, CallTurn]:
    """Turn index -> the call turn whose answer window holds it."""
    return dict(timeline_of(conversation).owners)


def preceding_call_turn(conversation: Conversation, turn_index: int) -> CallTurn | None:
    """The call turn whose answer window holds ``turn_index``, if any."""
    return timeline_of(conversation).owners.get(turn_index)
