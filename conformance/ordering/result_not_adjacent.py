"""ordering.*: results, text and system prompts sit where each dialect requires.

Each ``check_<property>`` is pure. The payload rules divide the work so that
one defect gives one code:

* a result outside the answer window of its call (after the next assistant
  turn, or with no call turn before it) is ``pairing.orphan_result``; the
  ordering rules only judge results that pairing accepted (their call is in
  the assistant turn whose window holds them);
* inside the window, openai-chat wants the ``tool`` messages right after the
  assistant message (``result_not_adjacent``); anthropic-messages wants all
  results in the one user message that follows (``parallel_results_split``
  when they are spread over several, ``result_not_adjacent`` when the first
  message after the call holds none of them), with the ``tool_result`` blocks
  first (``result_after_text``);
* under the ``anthropic`` profile the API merges consecutive same-role
  messages (WIRE.md 1.2), so the window is one message there and the merged
  message is what ``result_after_text`` judges; ``role_alternation`` leaves
  alone a repeated user message that holds results (the rules above say what
  is wrong with it).

``ordering.block_order`` lives in ``ordering_blocks``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import pairwise

from toolwire.conformance.context import (
    PayloadCheck,
    PayloadUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC, STRICT_ONLY
from toolwire.conformance.readings.paths import block_path, turn_path
from toolwire.conformance.readings.timeline import CallTurn, ResultSite, call_turns, timeline_of
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_DOCS,
    ANTHROPIC_TOOLS,
    OPENAI_TOOLS,
    UNANSWERED_ANTHROPIC,
    UNANSWERED_OPENAI,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation, ToolResult

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


RESULT_AFTER_TEXT = rule(
    "ordering.result_after_text",
    "MUST",
    "payload",
    "In an anthropic-messages user message, tool_result blocks come before any other content.",
    ANTHROPIC_TOOLS,
    dialects=frozenset({ANTHROPIC}),
    evidence=(
        documented(
            ANTHROPIC_TOOLS,
            "in the user message holding tool results, the tool_result blocks come first; "
            "text only after them (a 400 otherwise)",
        ),
    ),
    fix=(
        "In an anthropic-messages user message, write the tool_result blocks first and any "
        "text the source had after them."
    ),
)


PARALLEL_RESULTS_SPLIT = rule(
    "ordering.parallel_results_split",
    "MUST",
    "payload",
    "All tool results for one assistant turn travel in a single user message.",
    ANTHROPIC_TOOLS,
    dialects=frozenset({ANTHROPIC}),
    profile_levels=STRICT_ONLY,
    # MUST only under anthropic-strict: servers that do not merge same-role messages.
    evidence=(
        rejected(
            "https://github.com/deepseek-ai/DeepSeek-R1/issues/21",
            'DeepSeek 400 "does not support successive user or assistant messages": a '
            "server that does not merge same-role messages rejects them",
        ),
        documented(ANTHROPIC_TOOLS, "all results of one assistant turn go in one user message"),
    ),
    fix=(
        "Gather every tool message answering one assistant turn into a single anthropic "
        "user message, one tool_result block each, in the order of the calls."
    ),
)


ROLE_ALTERNATION = rule(
    "ordering.role_alternation",
    "MUST",
    "payload",
    "User and assistant messages alternate, starting with a user message.",
    ANTHROPIC_DOCS,
    dialects=frozenset({ANTHROPIC}),
    profile_levels=STRICT_ONLY,
    evidence=(
        rejected(
            "https://github.com/deepseek-ai/DeepSeek-R1/issues/21",
            'DeepSeek 400 "does not support successive user or assistant messages"',
        ),
    ),
    fix=(
        "Merge consecutive messages of one role into one message (their content blocks in "
        "order) and start the conversation with a user message."
    ),
)


SYSTEM_PLACEMENT = rule(
    "ordering.system_placement",
    "MUST",
    "payload",
    "In anthropic-messages a system prompt travels in the top-level system field, "
    "never as a system or developer message inside messages.",
    ANTHROPIC_DOCS,
    dialects=frozenset({ANTHROPIC}),
    evidence=(
        rejected(
            "https://github.com/Maol-1997/cursor-claude-connector/issues/3",
            'Anthropic 400 "Unexpected role \\"system\\". The Messages API accepts a '
            'top-level `system` parameter"',
        ),
    ),
    fix=(
        "Move system and developer messages out of `messages` into the top-level `system` "
        "field of the anthropic-messages request."
    ),
)


RESULT_ORDER = rule(
    "ordering.result_order",
    "SHOULD",
    "payload",
    "Tool results follow the order of the calls they answer.",
    ANTHROPIC_TOOLS,
    OPENAI_TOOLS,
    fix=(
        "Write the results in the order of the calls they answer (the order of `tool_calls` "
        "or of the tool_use blocks)."
    ),
)


# Profiles whose server merges consecutive same-role messages into one turn:
# Anthropic's own API documents it (https://docs.anthropic.com/en/api/messages).
MERGING_PROFILES = frozenset({"anthropic"})
SYSTEM_ROLES = frozenset({"system", "developer"})


def answers(conversation: Conversation, call_turn: CallTurn) -> list[ResultSite]:
    """The results in ``call_turn``'s window that answer one of its calls (first answer
    per id: a second one is ``pairing.duplicate_result``)."""
    return timeline_of(conversation).answers(call_turn)


def _path(conversation: Conversation, site: ResultSite) -> str:
    return block_path(conversation, site.turn_index, site.block_index)


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
            f"the result for {site.result.call_id!r} at {_path(conversation, site)} comes after "
            f"{at(first_other)} ({turns[first_other].role}); tool messages belong "
            f"directly after the assistant message {at(call_turn.turn_index)}",
            _path(conversation, site),
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
            f"the result for {site.result.call_id!r} is at {_path(conversation, site)}, but the "
            f"message right after the call turn {at(call_turn.turn_index)} is "
            f"{at(first)}, which holds none of its results",
            _path(conversation, site),
            expected=at(first),
            actual=at(site.turn_index),
        )
        for site in sites
    ]


def _user_units(conversation: Conversation, merges: bool) -> list[list[int]]:
    """User messages as the server sees them: runs of consecutive user messages
    when it merges, single messages otherwise."""
    units: list[list[int]] = []
    previous_user = False
    for index, turn in enumerate(conversation.turns):
        is_user = turn.role == "user"
        if is_user and merges and previous_user:
            units[-1].append(index)
        elif is_user:
            units.append([index])
        previous_user = is_user
    return units


def check_result_after_text(conversation: Conversation, merges: bool) -> list[Finding]:
    # "tool_result blocks must come FIRST in the content array" (implement-tool-use).
    found = []
    for unit in _user_units(conversation, merges):
        misplaced = _result_after_other_content(conversation, unit)
        if misplaced is None:
            continue
        path, other = misplaced
        merged = " (consecutive user messages merge)" if len(unit) > 1 else ""
        found.append(
            finding(
                "ordering.result_after_text",
                f"the tool_result at {path} comes after other content at {other}{merged}; "
                "tool_result blocks must come first",
                path,
                expected="tool_result blocks before any other content",
                actual=other,
            )
        )
    return found


def _result_after_other_content(
    conversation: Conversation, unit: list[int]
) -> tuple[str, str] | None:
    """(path of the first tool_result after other content, path of that content)."""
    other: str | None = None
    for turn_index in unit:
        for block_index, block in enumerate(conversation.turns[turn_index].blocks):
            if not isinstance(block, ToolResult):
                other = other or block_path(conversation, turn_index, block_index)
            elif other is not None:
                return block_path(conversation, turn_index, block_index), other
    return None


def check_parallel_results_split(conversation: Conversation) -> list[Finding]:
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    found = []
    for call_turn in call_turns(conversation):
        holders = sorted({site.turn_index for site in answers(conversation, call_turn)})
        if len(holders) > 1:
            where = ", ".join(at(i) for i in holders)
            found.append(
                finding(
                    "ordering.parallel_results_split",
                    f"the results for the calls of {at(call_turn.turn_index)} are split "
                    f"over {where}; send them all in one user message",
                    at(holders[1]),
                    expected=[at(holders[0])],
                    actual=[at(i) for i in holders],
                )
            )
    return found


def check_role_alternation(conversation: Conversation) -> list[Finding]:
    # System and developer roles are ordering.system_placement's; any other
    # role is a schema violation. Only user and assistant messages alternate.
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    holders = {
        site.turn_index
        for call_turn in call_turns(conversation)
        for site in answers(conversation, call_turn)
    }
    indices = [i for i, t in enumerate(conversation.turns) if t.role in ("user", "assistant")]
    found = []
    if indices and conversation.turns[indices[0]].role != "user":
        found.append(
            finding(
                "ordering.role_alternation",
                f"the first message {at(indices[0])} is an assistant message; "
                "anthropic-messages expects the conversation to start with a user message",
                f"{at(indices[0])}.role",
                expected="user",
                actual=conversation.turns[indices[0]].role,
            )
        )
    for previous, current in pairwise(indices):
        role = conversation.turns[current].role
        if role != conversation.turns[previous].role:
            continue
        if role == "user" and current in holders:
            continue  # results placed in a second user message: the result rules say so
        found.append(
            finding(
                "ordering.role_alternation",
                f"{at(previous)} and {at(current)} are both {role} messages; "
                "anthropic-messages expects user and assistant messages to alternate",
                at(current),
                expected="assistant" if role == "user" else "user",
                actual=role,
            )
        )
    return found


def check_system_placement(conversation: Conversation) -> list[Finding]:
    # anthropic-messages has no system role: the prompt is the top-level
    # `system` field (https://docs.anthropic.com/en/api/messages). OpenAI's
    # reference puts no constraint on where system/developer messages go,
    # so openai-chat payloads have nothing to judge here.
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    return [
        finding(
            "ordering.system_placement",
            f"{at(index)} has role {turn.role!r}; anthropic-messages carries the system "
            "prompt in the top-level `system` field",
            f"{at(index)}.role",
            expected="top-level system",
            actual=turn.role,
        )
        for index, turn in enumerate(conversation.turns)
        if turn.role in SYSTEM_ROLES
    ]


def check_result_order(conversation: Conversation) -> list[Finding]:
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    found = []
    for call_turn in call_turns(conversation):
        sites = answers(conversation, call_turn)
        got = [site.result.call_id for site in sites]
        # Call order, each id once (a repeated id is pairing.call_id_duplicate).
        expected = [i for i in dict.fromkeys(s.call.id for s in call_turn.calls) if i in got]
        if got == expected or len(got) != len(expected):
            continue
        wrong = next(i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b)
        path = _path(conversation, sites[wrong])
        found.append(
            finding(
                "ordering.result_order",
                f"the result at {path} answers {got[wrong]!r}, but the calls of "
                f"{at(call_turn.turn_index)} come in the order "
                f"{', '.join(map(repr, expected))}",
                path,
                expected=expected,
                actual=got,
            )
        )
    return found


# --- wiring: what the engine calls -------------------------------------------


MergeAwareCheck = Callable[[Conversation, bool], list[Finding]]


Exercised = Callable[[Conversation, bool], bool]


def _with_results(check: MergeAwareCheck, exercised: Exercised | None = None) -> PayloadCheck:
    """Run on a request that holds results, telling the check whether the
    target server merges consecutive same-role messages. ``exercised`` says
    whether the request holds what the rule judges: without it a pass would
    say nothing (one result cannot be out of order), so there is no verdict."""

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        conversation = payload.conversation
        if conversation is None or not timeline_of(conversation).results:
            return None
        merges = payload.profile in MERGING_PROFILES
        found = check(conversation, merges)
        if found or exercised is None or exercised(conversation, merges):
            return found
        return None

    return run


def _on_requests(
    check: Callable[[Conversation], list[Finding]],
    exercised: Callable[[Conversation], bool] | None = None,
) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        conversation = payload.conversation
        if conversation is None:
            return None
        found = check(conversation)
        if found or exercised is None or exercised(conversation):
            return found
        return None

    return run


def _answered_turns(conversation: Conversation, at_least: int) -> bool:
    """Some call turn has ``at_least`` calls answered in its window."""
    return any(len(answers(conversation, turn)) >= at_least for turn in call_turns(conversation))


def _adjacency_judged(conversation: Conversation, merges: bool) -> bool:
    # A server that merges the window into one message leaves nothing to misplace.
    if merges and conversation.dialect == ANTHROPIC_MESSAGES:
        return False
    return _answered_turns(conversation, 1)


def _several_answers(conversation: Conversation, _merges: bool) -> bool:
    return _answered_turns(conversation, 2)


def _has_system_prompt(conversation: Conversation) -> bool:
    return bool(conversation.system) or any(t.role in SYSTEM_ROLES for t in conversation.turns)


def _anthropic(inner: PayloadCheck) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        return inner(payload) if payload.dialect == ANTHROPIC_MESSAGES else None

    return run


def _merge_blind(check: Callable[[Conversation], list[Finding]]) -> MergeAwareCheck:
    return lambda conversation, _merges: check(conversation)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.result_not_adjacent": _with_results(check_result_not_adjacent, _adjacency_judged),
    "ordering.result_after_text": _anthropic(_with_results(check_result_after_text)),
    "ordering.parallel_results_split": _anthropic(
        _with_results(_merge_blind(check_parallel_results_split), _several_answers)
    ),
    "ordering.role_alternation": _anthropic(_on_requests(check_role_alternation)),
    "ordering.system_placement": _anthropic(
        _on_requests(check_system_placement, _has_system_prompt)
    ),
    "ordering.result_order": _with_results(_merge_blind(check_result_order), _several_answers),
}

__all__ = [
    "MERGING_PROFILES",
    "PAYLOAD_CHECKS",
    "answers",
]
