"""Step 7: steps 1 and 3 again, streamed.

The answers are read as event streams (``toolwire.harness.sse``) and reassembled by
the dialect codec's stream parser; calls written as text are fed to the
Qwen XML parser fragment by fragment, as they arrive. Streaming tool use
works when both streamed steps yield complete, schema-valid calls. When it
does not, the correction layer turns off streaming *tool calls* only, not
streaming (docs/probe.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolwire.harness.probe.evidence import Notes, Status, StepResult, step_result
from toolwire.harness.probe.loops import add_loop
from toolwire.harness.probe.observe import Observation
from toolwire.harness.probe.requests import streamed
from toolwire.harness.probe.session import ProbeSession, refusal
from toolwire.harness.probe.tools import ECHO


def streaming(session: ProbeSession, notes: Notes) -> StepResult:
    dialect = session.dialect
    failures: list[str] = []
    basic = session.conversation("streaming-basic-format", "step 7, step 1 streamed")
    first = session.ask(basic, streamed(notes.basic_request or {}, dialect))
    basic_complete = _complete_echo(session, first, notes, failures)

    loop = session.conversation("streaming-single-tool-loop", "step 7, step 3 streamed")
    outcome = add_loop(session, loop, streamed(notes.loop_request or {}, dialect), Notes())
    loop_streamed = outcome.first.exchange.is_stream
    if outcome.first.ok and not loop_streamed:
        failures.append(f"step 3 streamed: answered {outcome.first.exchange.content_type}")
    failures += [f"step 3 streamed: {failure}" for failure in outcome.failures]
    if outcome.status != "pass":
        failures.append(f"step 3 streamed: {outcome.reason}")

    supported = basic_complete and outcome.call_complete and loop_streamed
    requests = len(basic.exchanges) + len(loop.exchanges)
    status: Status
    if supported:
        status = "pass" if not failures else "partial"
        reason = "the streamed fragments reassemble into complete calls in steps 1 and 3"
    else:
        status = "fail"
        reason = "a streamed tool call did not reassemble into a complete call"
    return step_result(7, supported, status, reason, first, failures, requests)


def _complete_echo(
    session: ProbeSession, observation: Observation, notes: Notes, failures: list[str]
) -> bool:
    """Whether step 1 streamed gave a complete, schema-valid probe_echo call."""
    if not observation.ok:
        failures.append(f"step 1 streamed: {refusal(session, observation)}")
        return False
    if not observation.exchange.is_stream:
        content_type = observation.exchange.content_type or "no content type"
        failures.append(f"step 1 streamed: answered {content_type}, not an event stream")
        return False
    failures += [f"step 1 streamed: {problem}" for problem in observation.problems]
    if notes.basic_format is not None and observation.format != notes.basic_format:
        failures.append(
            f"step 1 streamed: format {observation.format}, not {notes.basic_format} as unstreamed"
        )
    echoes = observation.calls_named(ECHO)
    if not echoes:
        failures.append(f"step 1 streamed: no probe_echo call ({observation.format})")
        return False
    failures += [f"step 1 streamed: {problem}" for problem in echoes[0].failures()]
    # Complete: the fragments joined into an object of arguments (schema
    # flaws are listed, but are step 2's business).
    return echoes[0].executable and isinstance(echoes[0].arguments, Mapping)
