"""ordering.result_not_adjacent: tool results sit in the message(s) right
after the assistant turn that made the calls (how this rule shares the answer
window with the others: ``ordering/applies.py``)."""

from __future__ import annotations

from functools import partial

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import answered_turns, answers, result_path, with_results
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.timeline import CallTurn, ResultSite, call_turns
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_TOOLS,
    OPENAI_TOOLS,
    UNANSWERED_ANTHROPIC,
    UNANSWERED_OPENAI,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation

RESULT_NOT_ADJACENT = rule(
    "ordering.result_not_adjacent",
    "MUST",
    "payload",
    "Tool results sit in the message(s) right after the assistant turn that made the calls.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    # No recorded Responses 400 for an item between a call and its output
    # (only for an output missing entirely: pairing.unanswered_call).
    profile_levels={"openai-responses": "SHOULD"},
    evidence=(
        rejected(
            UNANSWERED_OPENAI,
            "OpenAI 400: the assistant message with tool_calls must be followed by the "
            "tool messages answering it",
        ),
        rejected(
            UNANSWERED_ANTHROPIC,
            "Anthropic 400: each tool_use needs its tool_result in the next message",
        ),
    ),
    fix=(
        "Place the results of an assistant turn's calls in the message(s) right after that "
        "turn: no user text, empty message or other turn in between."
    ),
)


def check_result_not_adjacent(conversation: Conversation, merges: bool) -> list[Finding]:
    found = []
    for call_turn in call_turns(conversation):
        sites = answers(conversation, call_turn)
        if conversation.dialect == ANTHROPIC_MESSAGES:
            found.extend(_anthropic_not_adjacent(conversation, call_turn, sites, merges))
        else:
            found.extend(_openai_not_adjacent(conversation, call_turn, sites))
    return found


def _openai_not_adjacent(
    conversation: Conversation, call_turn: CallTurn, sites: list[ResultSite]
) -> list[Finding]:
    # OpenAI: the tool messages answering the calls come right after the
    # assistant message, before any other message (HTTP 400 otherwise).
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    turns = conversation.turns
    first_other = next((i for i in call_turn.window if turns[i].role != "tool"), None)
    if first_other is None:
        return []
    return [
        finding(
            "ordering.result_not_adjacent",
            f"the result for {site.result.call_id!r} at {result_path(conversation, site)} "
            f"comes after {at(first_other)} ({turns[first_other].role}); tool messages belong "
            f"directly after the assistant message {at(call_turn.turn_index)}",
            result_path(conversation, site),
            expected=f"a tool message before {at(first_other)}",
            actual=at(site.turn_index),
        )
        for site in sites
        if site.turn_index > first_other
    ]


def _anthropic_not_adjacent(
    conversation: Conversation, call_turn: CallTurn, sites: list[ResultSite], merges: bool
) -> list[Finding]:
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    if merges or not call_turn.window:
        return []  # the API merges the window into one user message
    first = call_turn.window[0]
    if any(site.turn_index == first for site in sites):
        return []  # some results are in the next message: the rest is a split
    return [
        finding(
            "ordering.result_not_adjacent",
            f"the result for {site.result.call_id!r} is at {result_path(conversation, site)}, "
            f"but the message right after the call turn {at(call_turn.turn_index)} is "
            f"{at(first)}, which holds none of its results",
            result_path(conversation, site),
            expected=at(first),
            actual=at(site.turn_index),
        )
        for site in sites
    ]


def _adjacency_judged(conversation: Conversation, merges: bool) -> bool:
    # A server that merges the window into one message leaves nothing to misplace.
    if merges and conversation.dialect == ANTHROPIC_MESSAGES:
        return False
    return answered_turns(conversation, 1)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.result_not_adjacent": with_results(check_result_not_adjacent, _adjacency_judged),
}
