"""What the ordering checks of a request share: the results that answer a
call turn, whether the server merges same-role messages, and when a check has
something to judge. Holds no rule: each is defined in
``conformance/ordering/<name>.py``.

The payload rules divide the work so that one defect gives one code:

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
* under the ``anthropic-merging`` profile the target merges consecutive
  same-role messages before it checks them (WIRE.md 1.2), so the window is
  one message there and the merged message is what ``result_after_text``
  judges; under the default ``anthropic`` profile the results must be in the
  first message after the call turn, as several real Anthropic-format
  endpoints check them (docs/levels.md, "Split tool results toward
  Anthropic"); ``role_alternation`` leaves alone a repeated user message that
  holds results (the rules above say what is wrong with it).
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.readings.timeline import CallTurn, ResultSite, call_turns, timeline_of
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation

# Profiles whose server merges consecutive same-role messages into one turn
# before it checks the results: Anthropic's Messages API reference says its API
# merges (https://docs.anthropic.com/en/api/messages), but Vertex AI and
# DeepSeek's Anthropic endpoint answer 400 to results split that way, so the
# default ``anthropic`` profile does not count on it (docs/levels.md).
MERGING_PROFILES = frozenset({"anthropic-merging"})


def answers(conversation: Conversation, call_turn: CallTurn) -> list[ResultSite]:
    """The results in ``call_turn``'s window that answer one of its calls (first answer
    per id: a second one is ``pairing.duplicate_result``)."""
    return timeline_of(conversation).answers(call_turn)


def result_path(conversation: Conversation, site: ResultSite) -> str:
    return block_path(conversation, site.turn_index, site.block_index)


MergeAwareCheck = Callable[[Conversation, bool], list[Finding]]


Exercised = Callable[[Conversation, bool], bool]


def with_results(check: MergeAwareCheck, exercised: Exercised | None = None) -> PayloadCheck:
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


def on_requests(
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


def answered_turns(conversation: Conversation, at_least: int) -> bool:
    """Some call turn has ``at_least`` calls answered in its window."""
    return any(len(answers(conversation, turn)) >= at_least for turn in call_turns(conversation))


def several_answers(conversation: Conversation, _merges: bool) -> bool:
    return answered_turns(conversation, 2)


def anthropic_only(inner: PayloadCheck) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        return inner(payload) if payload.dialect == ANTHROPIC_MESSAGES else None

    return run


def merge_blind(check: Callable[[Conversation], list[Finding]]) -> MergeAwareCheck:
    return lambda conversation, _merges: check(conversation)
