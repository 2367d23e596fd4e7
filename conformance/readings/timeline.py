"""Where every tool call and tool result sits in a conversation.

Pairing and ordering rules both walk the same structure: each assistant turn
that makes calls, and the turns that follow it up to the next assistant turn
(the *answer window*: where its results belong in every dialect).

``timeline_of`` builds that structure in one pass over the turns, once per
conversation (``toolwire.conformance.readings.memo``): a dozen checks read it for each payload,
and rebuilding it per result made long conversations quadratic.

In Gemini, consecutive ``model`` contents are one model turn: the API accepts
them, and answers the calls of all of them with the function responses of the
user content that follows (a real accepted request: pydantic-ai's cassette
``tests/cassettes/test_tool_search/test_cross_provider_capability_replay[...]``,
two model contents of one call each, then one user content answering both).
Read as two turns, the first call would look unanswered and its answer an
orphan. Other dialects keep each assistant message a turn of its own
(openai-chat answers 400 when an assistant message's calls are not followed
by their tool messages).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from toolwire.conformance.readings.memo import by_identity
from toolwire.harness.model import GEMINI, Conversation, ToolCall, ToolResult

ASSISTANT_ROLES = frozenset({"assistant", "model"})
# Dialects whose consecutive assistant contents make one model turn.
MERGED_MODEL_TURNS = frozenset({GEMINI})


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
    """An assistant turn that makes calls, and the turns that may answer them.

    In a dialect of ``MERGED_MODEL_TURNS`` the turn is a run of consecutive
    model contents: ``turn_index`` is the first of them that makes a call,
    ``calls`` holds the calls of all of them."""

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
    runs = _model_turns(assistants, conversation.dialect in MERGED_MODEL_TURNS)
    call_turns = []
    owners: dict[int, CallTurn] = {}
    for position, run in enumerate(runs):
        sites = tuple(site for index in run for site in calls_by_turn.get(index, ()))
        if not sites:
            continue
        end = runs[position + 1][0] if position + 1 < len(runs) else len(turns)
        window = tuple(range(run[-1] + 1, end))
        call_turn = CallTurn(sites[0].turn_index, sites, window, run[-1] == len(turns) - 1)
        call_turns.append(call_turn)
        owners.update(dict.fromkeys(call_turn.window, call_turn))
    return Timeline(
        tuple(calls),
        tuple(results),
        tuple(call_turns),
        MappingProxyType(owners),
        MappingProxyType({turn: tuple(sites) for turn, sites in results_by_turn.items()}),
    )


def _model_turns(assistants: list[int], merged: bool) -> list[list[int]]:
    """The assistant turn indices grouped into model turns: one each, or runs
    of consecutive indices where the dialect merges them."""
    runs: list[list[int]] = []
    for index in assistants:
        if merged and runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


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
