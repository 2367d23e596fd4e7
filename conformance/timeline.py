"""Where every tool call and tool result sits in a conversation.

Pairing and ordering rules both walk the same structure: each assistant turn
that makes calls, and the turns that follow it up to the next assistant turn
(the *answer window*: where its results belong in every dialect).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.model import Conversation, ToolCall, ToolResult

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


def call_sites(conversation: Conversation) -> list[CallSite]:
    return [
        CallSite(block, t, b)
        for t, turn in enumerate(conversation.turns)
        for b, block in enumerate(turn.blocks)
        if isinstance(block, ToolCall)
    ]


def result_sites(conversation: Conversation) -> list[ResultSite]:
    return [
        ResultSite(block, t, b)
        for t, turn in enumerate(conversation.turns)
        for b, block in enumerate(turn.blocks)
        if isinstance(block, ToolResult)
    ]


def call_turns(conversation: Conversation) -> list[CallTurn]:
    """Every assistant turn that makes calls, with its answer window (one pass)."""
    turns = conversation.turns
    sites: dict[int, list[CallSite]] = {}
    for site in call_sites(conversation):
        sites.setdefault(site.turn_index, []).append(site)
    assistants = [i for i, turn in enumerate(turns) if turn.role in ASSISTANT_ROLES]
    found = []
    for position, index in enumerate(assistants):
        if index not in sites:
            continue
        end = assistants[position + 1] if position + 1 < len(assistants) else len(turns)
        found.append(
            CallTurn(
                index, tuple(sites[index]), tuple(range(index + 1, end)), index == len(turns) - 1
            )
        )
    return found


def call_turn_by_window(conversation: Conversation) -> dict[int, CallTurn]:
    """Turn index -> the call turn whose answer window holds it."""
    return {index: owner for owner in call_turns(conversation) for index in owner.window}


def preceding_call_turn(conversation: Conversation, turn_index: int) -> CallTurn | None:
    """The call turn whose answer window holds ``turn_index``, if any."""
    return call_turn_by_window(conversation).get(turn_index)
