"""Gemini pairing: ``functionResponse`` parts answer ``functionCall`` parts by
id where the response carries one, else by name and order.

Gemini calls need not carry an ``id``; a ``functionResponse`` names the
function it answers, and the user turn right after the model's function-call
turn must hold as many response parts as that turn had call parts: the API
answers 400 "Please ensure that the number of function response parts is equal
to the number of function call parts of the function call turn"
(https://github.com/google-gemini/gemini-cli/issues/4217, gemini-2.5-pro;
https://ai.google.dev/gemini-api/docs/function-calling). ``match_window``
pairs one call turn with the results of its answer window:

* a result with an id takes the call with that id (or none: an orphan);
* a result without an id takes the first call of the same name not yet
  answered (a Gemini client answers parallel calls in order);
* what is left: calls without an answer, results without a call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolwire.conformance.readings.timeline import CallSite, CallTurn, ResultSite, timeline_of
from toolwire.harness.model import Conversation


@dataclass(frozen=True)
class WindowMatch:
    answered: tuple[CallSite, ...]
    unanswered: tuple[CallSite, ...]
    orphans: tuple[ResultSite, ...]


def match_window(conversation: Conversation, call_turn: CallTurn) -> WindowMatch:
    paired = _window_answers(conversation, call_turn)
    answered = tuple(call for _, call in paired if call is not None)
    orphans = tuple(site for site, call in paired if call is None)
    open_calls = tuple(call for call in call_turn.calls if call not in answered)
    return WindowMatch(answered, open_calls, orphans)


def answered_calls(conversation: Conversation) -> dict[tuple[int, int], CallSite]:
    """The call each result answers, by the result's (turn, block) place: the
    meaning a Gemini request gives its results (an orphan has no entry)."""
    found: dict[tuple[int, int], CallSite] = {}
    for call_turn in timeline_of(conversation).call_turns:
        for site, call in _window_answers(conversation, call_turn):
            if call is not None:
                found[(site.turn_index, site.block_index)] = call
    return found


def _window_answers(
    conversation: Conversation, call_turn: CallTurn
) -> list[tuple[ResultSite, CallSite | None]]:
    """Each result of the call turn's answer window, with the call it answers."""
    timeline = timeline_of(conversation)
    open_calls = list(call_turn.calls)
    paired: list[tuple[ResultSite, CallSite | None]] = []
    for index in call_turn.window:
        for site in timeline.results_by_turn.get(index, ()):
            result = site.result
            if result.call_id:
                match = [c for c in open_calls if c.call.id == result.call_id]
            else:
                match = [c for c in open_calls if c.call.name == result.name]
            if match:
                open_calls.remove(match[0])
            paired.append((site, match[0] if match else None))
    return paired


def unmatched_results(conversation: Conversation) -> list[ResultSite]:
    """Every result no call answers: outside any answer window, or left over in one."""
    timeline = timeline_of(conversation)
    left: list[ResultSite] = [s for s in timeline.results if s.turn_index not in timeline.owners]
    for call_turn in timeline.call_turns:
        left += match_window(conversation, call_turn).orphans
    return sorted(left, key=lambda s: (s.turn_index, s.block_index))


def unanswered_calls(conversation: Conversation) -> Sequence[CallSite]:
    found: list[CallSite] = []
    for call_turn in timeline_of(conversation).call_turns:
        if not call_turn.is_last_turn:
            found += match_window(conversation, call_turn).unanswered
    return found
