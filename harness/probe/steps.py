"""Steps 1, 2 and 4: one request each, judged on the calls that come back.

1. basic format: one ``probe_echo`` call with a fixed string and enum
   value; which format it arrives in decides ``toolCallFormat``;
2. schema adherence: enum, required, an integer inside a nested object,
   checked with jsonschema; decides ``schemaLevel``;
4. parallel calls: an echo and an add asked at once; one call, or both
   squeezed into one argument set, means no parallel support.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.probe.evidence import (
    FORMAT_WORDS,
    Notes,
    Status,
    StepResult,
    call_names,
    mismatches,
    status_for,
    step_result,
)
from toolwire.harness.probe.observe import Call
from toolwire.harness.probe.requests import first_request
from toolwire.harness.probe.session import ProbeSession, refusal
from toolwire.harness.probe.tools import ADD, ECHO, TOOLS_BY_NAME

BASIC_ASKED: Mapping[str, Any] = {"message": "toolwire probe", "tag": "alpha"}
BASIC_PROMPT = (
    'Call the tool probe_echo with message "toolwire probe" and tag "alpha". '
    "Make exactly this one call."
)
SCHEMA_ASKED: Mapping[str, Any] = {
    "message": "schema check",
    "tag": "beta",
    "meta": {"source": "toolwire", "priority": 2},
}
SCHEMA_PROMPT = (
    'Call probe_echo with message "schema check", tag "beta" and meta '
    '{"source": "toolwire", "priority": 2} (priority is an integer).'
)
PARALLEL_ASKED: Mapping[str, Mapping[str, Any]] = {
    ECHO: {"message": "parallel", "tag": "beta"},
    ADD: {"a": 2, "b": 3},
}
PARALLEL_PROMPT = (
    'Call both tools now, in this one turn: probe_echo with message "parallel" and '
    'tag "beta", and probe_add with a = 2 and b = 3. Make both calls before you answer.'
)
STRICT, SIMPLE, STRING_ONLY = "strict-json-schema", "simple-object", "string-only"
# OpenAI models have wrapped parallel calls into one call of this pseudo-tool.
_WRAPPER_NAMES = ("multi_tool_use.parallel",)


def basic_format(session: ProbeSession, notes: Notes) -> StepResult:
    conversation = session.conversation("basic-format", "step 1, basic format")
    body = first_request(session.dialect, session.model, BASIC_PROMPT)
    notes.basic_request = body
    observation = session.ask(conversation, body)
    notes.basic_format = observation.format

    def result(status: Status, reason: str, failures: Sequence[str] = ()) -> StepResult:
        return step_result(1, observation.format, status, reason, observation, failures, 1)

    if not observation.ok:
        return result("fail", refusal(session, observation))
    if not observation.calls:
        return result("fail", f"answered in prose: {observation.preview()!r}", observation.problems)
    failures = list(observation.problems)
    echoes = observation.calls_named(ECHO)
    if not echoes:
        failures.append(f"called {call_names(observation.calls)} instead of probe_echo")
    if len(observation.calls) > 1:
        failures.append(f"{len(observation.calls)} calls where one was asked")
    call = echoes[0] if echoes else observation.calls[0]
    failures += call.failures() + mismatches(call, BASIC_ASKED)
    reason = f"a {call.name} call as {FORMAT_WORDS[observation.format]}"
    return result(status_for(failures), reason, failures)


def schema_adherence(session: ProbeSession, notes: Notes) -> StepResult:
    conversation = session.conversation("schema-adherence", "step 2, schema adherence")
    body = first_request(session.dialect, session.model, SCHEMA_PROMPT)
    observation = session.ask(conversation, body)

    def result(status: Status, level: str, reason: str, failures: Sequence[str] = ()) -> StepResult:
        return step_result(2, level, status, reason, observation, failures, 1)

    if not observation.ok:
        return result("fail", STRING_ONLY, refusal(session, observation))
    echoes = observation.calls_named(ECHO)
    call = echoes[0] if echoes else (observation.calls[0] if observation.calls else None)
    if call is None:
        reason = f"no call: {observation.preview()!r}"
        return result("fail", STRING_ONLY, reason, observation.problems)
    if not isinstance(call.arguments, Mapping):
        return result("fail", STRING_ONLY, "the arguments are not a JSON object", call.failures())
    schema = call.failures()
    asked = mismatches(call, SCHEMA_ASKED)
    if schema:
        reason = "the arguments are an object that breaks the tool's JSON Schema"
        return result("partial", SIMPLE, reason, schema + asked)
    if "meta" not in call.arguments:
        reason = "schema-valid, but the nested object asked for was left out"
        return result("partial", SIMPLE, reason, asked)
    reason = "enum, required, integer type and nested object all match the JSON Schema"
    return result(status_for(asked), STRICT, reason, asked)


def parallel_calls(session: ProbeSession, notes: Notes) -> StepResult:
    conversation = session.conversation("parallel-calls", "step 4, parallel calls")
    body = first_request(session.dialect, session.model, PARALLEL_PROMPT)
    observation = session.ask(conversation, body)

    def result(
        status: Status, supported: bool, reason: str, failures: Sequence[str] = ()
    ) -> StepResult:
        return step_result(4, supported, status, reason, observation, failures, 1)

    if not observation.ok:
        return result("fail", False, refusal(session, observation))
    calls = observation.calls
    if not calls:
        return result("fail", False, f"no call: {observation.preview()!r}")
    if len(calls) == 1:
        if _squeezed(calls[0]):
            reason = f"both calls squeezed into one argument set ({calls[0].name})"
        else:
            reason = f"one call only ({calls[0].name}) where two were asked"
        return result("fail", False, reason, calls[0].failures())
    failures = list(observation.problems)
    names = {call.name for call in calls}
    if names != set(PARALLEL_ASKED) or len(calls) != len(PARALLEL_ASKED):
        failures.append(f"called {call_names(calls)}; asked for probe_echo and probe_add")
    for name, asked in PARALLEL_ASKED.items():
        for call in observation.calls_named(name)[:1]:
            failures += call.failures() + mismatches(call, asked)
    reason = f"{len(calls)} separate calls in one turn ({call_names(calls)})"
    return result(status_for(failures), True, reason, failures)


def _squeezed(call: Call) -> bool:
    """One call carrying both asked calls: a wrapper tool, or merged arguments."""
    if call.name in _WRAPPER_NAMES:
        return True
    arguments = call.arguments
    if not isinstance(arguments, Mapping):
        return isinstance(arguments, list)
    if "tool_uses" in arguments or any(name in arguments for name in PARALLEL_ASKED):
        return True
    keys = set(arguments)
    touched = [
        name for name in PARALLEL_ASKED if keys & set(TOOLS_BY_NAME[name].schema["properties"])
    ]
    return len(touched) > 1
