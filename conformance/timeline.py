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
    turns = conversation.turns
    found = []
    for index, turn in enumerate(turns):
        if turn.role not in ASSISTANT_ROLES or not turn.tool_calls:
            continue
        window = []
        for later in range(index + 1, len(turns)):
            if turns[later].role in ASSISTANT_ROLES:
                break
            window.append(later)
        calls = tuple(s for s in call_sites(conversation) if s.turn_index == index)
        found.append(CallTurn(index, calls, tuple(window), index == len(turns) - 1))
    return found


def preceding_call_turn(conversation: Conversation, turn_index: int) -> CallTurn | None:
    """The call turn whose answer window holds ``turn_index``, if any."""
    for call_turn in call_turns(conversation):
        if turn_index in call_turn.window:
            return call_turn
    return None
