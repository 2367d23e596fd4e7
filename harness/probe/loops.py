"""Steps 3 and 5: a call, its result sent back, and what the model does next.

3. single-tool loop: ``probe_add`` runs, the sum goes back, and the final
   answer must state the tool's sum. The tool adds the arguments the model
   actually sent, so an answer that states the true sum of the asked numbers
   when the tool's sum differs shows the model's own arithmetic;
5. error repair: ``probe_fail_once`` answers its structured error; a
   corrected call (an absolute path) is ``reliable``, a call that does not
   fix the argument ``limited``, prose ``none``.

``add_loop`` is shared with step 7, which repeats step 3 streamed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.harness.probe.evidence import (
    LoopPoint,
    Notes,
    Status,
    StepResult,
    call_names,
    mismatches,
    status_for,
    step_result,
)
from toolwire.harness.probe.observe import STRUCTURED, Observation
from toolwire.harness.probe.requests import continued, first_request
from toolwire.harness.probe.session import Conversation, ProbeSession, refusal
from toolwire.harness.probe.tools import ADD, FAIL_ONCE, ToolAnswer, as_integer, run_tool

ADD_A, ADD_B = 48213, 97351
ADD_ASKED: Mapping[str, Any] = {"a": ADD_A, "b": ADD_B}
LOOP_PROMPT = (
    f"Use probe_add to add {ADD_A} and {ADD_B}, then tell me the sum in one short sentence."
)
REPAIR_PATH = "notes/today.txt"
REPAIR_PROMPT = f'Use probe_fail_once to read the file at path "{REPAIR_PATH}".'
RELIABLE, LIMITED, NO_REPAIR = "reliable", "limited", "none"
# Thousands separators models put in numbers: 145,564 / 145 564 / 145'564.
_SEPARATOR = re.compile(r"(?<=\d)[,'\u00a0\u202f ](?=\d{3}(?!\d))")
_INTEGER = re.compile(r"(?<![\d.])-?\d+(?![\d.]\d)")
_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")


@dataclass(frozen=True)
class LoopOutcome:
    status: Status
    reason: str
    failures: tuple[str, ...]
    first: Observation
    call_complete: bool  # a readable probe_add call came back


def single_tool_loop(session: ProbeSession, notes: Notes) -> StepResult:
    conversation = session.conversation("single-tool-loop", "step 3, single-tool loop")
    body = first_request(session.dialect, session.model, LOOP_PROMPT)
    notes.loop_request = body
    outcome = add_loop(session, conversation, body, notes)
    return step_result(
        3,
        None,
        outcome.status,
        outcome.reason,
        outcome.first,
        outcome.failures,
        len(conversation.exchanges),
    )


def add_loop(
    session: ProbeSession, conversation: Conversation, body: dict[str, Any], notes: Notes
) -> LoopOutcome:
    """Ask for the addition, answer the call, and judge the final answer."""
    first = session.ask(conversation, body)

    def outcome(status: Status, reason: str, failures: list[str], complete: bool) -> LoopOutcome:
        return LoopOutcome(status, reason, tuple(failures), first, complete)

    if not first.ok:
        return outcome("fail", refusal(session, first), list(first.problems), False)
    adds = first.calls_named(ADD)
    if not adds:
        if first.calls:
            return outcome("fail", f"called {call_names(first.calls)}, not probe_add", [], False)
        if ADD_A + ADD_B in numbers_in(first.text):
            reason = f"answered {ADD_A + ADD_B} from its own arithmetic, without calling probe_add"
            return outcome("fail", reason, [], False)
        return outcome("fail", f"no call: {first.preview()!r}", list(first.problems), False)
    call = adds[0]
    failures = [*first.problems, *call.failures(), *mismatches(call, ADD_ASKED)]
    arguments = call.arguments if isinstance(call.arguments, Mapping) else {}
    a, b = as_integer(arguments.get("a")), as_integer(arguments.get("b"))
    if a is None or b is None:
        return outcome("partial", "the probe_add arguments are not integers", failures, False)
    answers = answers_for(first)
    if first.has_reasoning:
        notes.reasoning_points.append(LoopPoint(body, first, answers))
    second = session.ask(conversation, continued(session.dialect, body, first, answers))
    if not second.ok:
        reason = f"the tool result was refused: {refusal(session, second)}"
        return outcome("fail", reason, failures, True)
    failures += second.problems
    if second.calls:
        reason = f"called {call_names(second.calls)} again instead of answering"
        return outcome("partial", reason, failures, True)
    tool_sum, numbers = a + b, numbers_in(second.text)
    if tool_sum in numbers:
        reason = f"the final answer states the tool's result {tool_sum}"
        return outcome(status_for(failures), reason, failures, True)
    if ADD_A + ADD_B in numbers:
        reason = f"the final answer states its own sum {ADD_A + ADD_B}, not the tool's {tool_sum}"
        return outcome("partial", reason, failures, True)
    reason = f"the final answer does not state the tool's result {tool_sum}: {second.preview()!r}"
    return outcome("partial", reason, failures, True)


def error_repair(session: ProbeSession, notes: Notes) -> StepResult:
    conversation = session.conversation("error-repair", "step 5, error repair")
    body = first_request(session.dialect, session.model, REPAIR_PROMPT)
    first = session.ask(conversation, body)

    def result(
        status: Status, repair: str, reason: str, failures: Sequence[str] = ()
    ) -> StepResult:
        requests = len(conversation.exchanges)
        return step_result(5, repair, status, reason, first, failures, requests)

    if not first.ok:
        return result("fail", NO_REPAIR, refusal(session, first), first.problems)
    calls = first.calls_named(FAIL_ONCE)
    if not calls:
        reason = f"never called probe_fail_once: {first.preview() or call_names(first.calls)!r}"
        return result("fail", NO_REPAIR, reason)
    if first.format not in STRUCTURED and not any(c.executable for c in calls):
        reason = "the probe_fail_once call cannot be executed, so no error could be sent back"
        return result("fail", NO_REPAIR, reason, calls[0].failures())
    answers = answers_for(first)
    if first.has_reasoning:
        notes.reasoning_points.append(LoopPoint(body, first, answers))
    second = session.ask(conversation, continued(session.dialect, body, first, answers))
    if not second.ok:
        reason = f"the error result was refused: {refusal(session, second)}"
        return result("fail", NO_REPAIR, reason)
    retries = second.calls_named(FAIL_ONCE)
    if retries:
        arguments = retries[0].arguments if isinstance(retries[0].arguments, Mapping) else {}
        path = arguments.get("path")
        if is_absolute(path):
            reason = f"called probe_fail_once again with the corrected path {path!r}"
            failures = retries[0].failures()
            return result(status_for(failures), RELIABLE, reason, failures)
        reason = f"called probe_fail_once again without fixing the path (got {path!r})"
        return result("partial", LIMITED, reason, retries[0].failures())
    if second.calls:
        reason = f"called {call_names(second.calls)} instead of retrying probe_fail_once"
        return result("partial", LIMITED, reason)
    reason = f"drifted into prose after the error: {second.preview()!r}"
    return result("fail", NO_REPAIR, reason)


def answers_for(observation: Observation) -> tuple[ToolAnswer, ...]:
    """The probe tools' answers to the calls: every structured call (each
    needs its result); for calls written as text, the executable ones."""
    structured = observation.format in STRUCTURED
    return tuple(
        run_tool(call.name, call.arguments)
        for call in observation.calls
        if structured or call.executable
    )


def numbers_in(text: str) -> set[int]:
    """The integers a text states, thousands separators removed."""
    return {int(match) for match in _INTEGER.findall(_SEPARATOR.sub("", text))}


def is_absolute(path: Any) -> bool:
    return isinstance(path, str) and (path.startswith("/") or bool(_WINDOWS_ABSOLUTE.match(path)))
