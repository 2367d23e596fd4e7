"""Running the seven steps against one endpoint and building the profile.

The order matters: steps 1 and 3 keep their requests for step 7 (which
repeats them streamed), steps 3 and 5 keep the calls that came back with
reasoning for step 6. A step whose request times out fails on its own;
the probe goes on. The probe stops, with one clear line, when the endpoint
cannot be reached, refuses the credentials, or does not know the model
(``ProbeError``), and when step 1 times out (the rest would too).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from toolwire.harness.corpus.record import RecordError
from toolwire.harness.errors import ToolwireError
from toolwire.harness.probe.evidence import Notes, StepResult, step_result
from toolwire.harness.probe.loops import NO_REPAIR, error_repair, single_tool_loop
from toolwire.harness.probe.observe import NONE
from toolwire.harness.probe.profile import Binding, CapabilityProfile, build_profile
from toolwire.harness.probe.reasoning import reasoning_state
from toolwire.harness.probe.schema import PROBE_DIALECTS
from toolwire.harness.probe.session import Conversation, ProbeSession, Sender
from toolwire.harness.probe.steps import STRING_ONLY, basic_format, parallel_calls, schema_adherence
from toolwire.harness.probe.streaming import streaming
from toolwire.harness.probe.transport import Endpoint, ProbeTimeout, post
from toolwire.harness.redaction import redact

Step = Callable[[ProbeSession, Notes], StepResult]
STEP_FUNCTIONS: tuple[Step, ...] = (
    basic_format,
    schema_adherence,
    single_tool_loop,
    parallel_calls,
    error_repair,
    reasoning_state,
    streaming,
)
# What a step that timed out decides: the conservative value. Reasoning
# replay stays on: it is harmless where accepted and needed where required.
_TIMED_OUT_VALUES: dict[int, Any] = {
    1: NONE,
    2: STRING_ONLY,
    3: None,
    4: False,
    5: NO_REPAIR,
    6: True,
    7: False,
}


class ProbeUsageError(ToolwireError):
    exit_code = 2


@dataclass(frozen=True)
class ProbeOptions:
    base_url: str
    model: str
    dialect: str
    api_key: str | None = None
    timeout: float = 120.0


@dataclass(frozen=True)
class ProbeRun:
    profile: CapabilityProfile
    endpoint: Endpoint
    conversations: tuple[Conversation, ...]


def run_probe(
    options: ProbeOptions,
    send: Sender = post,
    now: Callable[[], datetime.datetime] | None = None,
    progress: Callable[[StepResult], None] | None = None,
) -> ProbeRun:
    """Probe the endpoint; ``progress`` sees each step's result as it is known."""
    endpoint = _endpoint(options)
    session = ProbeSession(endpoint, options.model, send)
    notes = Notes()
    results: list[StepResult] = []
    for number, step in enumerate(STEP_FUNCTIONS, 1):
        try:
            result = step(session, notes)
        except ProbeTimeout as error:
            if number == 1:
                raise
            result = step_result(number, _TIMED_OUT_VALUES[number], "fail", str(error))
        result = _scrubbed(result, endpoint)
        results.append(result)
        if progress is not None:
            progress(result)
    served = session.served_model  # the endpoint's words: it may echo the key
    moment = now() if now is not None else datetime.datetime.now(datetime.UTC)
    binding = Binding(
        provider=endpoint.provider,
        model=options.model,
        endpoint=endpoint.scrubber().uri(endpoint.url),
        dialect=options.dialect,
        served_model=None if served is None else _clean(served, endpoint),
    )
    profile = build_profile(binding, moment, results)
    return ProbeRun(profile, endpoint, tuple(session.conversations))


def _scrubbed(result: StepResult, endpoint: Endpoint) -> StepResult:
    """The step's evidence with the key, pieces of it and anything key-like
    removed: reasons and failures quote the endpoint's replies, which may
    echo the key, and go to the profile and the terminal."""
    evidence = result.evidence
    clean = replace(
        evidence,
        reason=_clean(evidence.reason, endpoint),
        failures=tuple(_clean(failure, endpoint) for failure in evidence.failures),
    )
    return replace(result, evidence=clean)


def _clean(text: str, endpoint: Endpoint) -> str:
    return redact(endpoint.scrubber().text(text), [endpoint.api_key])


def _endpoint(options: ProbeOptions) -> Endpoint:
    if options.dialect not in PROBE_DIALECTS:
        raise ProbeUsageError(
            f"the probe speaks {' or '.join(PROBE_DIALECTS)}, not {options.dialect!r}",
            hint="DeepSeek and Qwen servers are OpenAI-compatible: use openai-chat",
        )
    if not options.model.strip():
        raise ProbeUsageError("--model is empty", hint="name the model, e.g. gpt-4o-mini")
    if options.timeout <= 0:
        raise ProbeUsageError("--timeout must be more than 0 seconds")
    endpoint = Endpoint(options.base_url, options.dialect, options.api_key, options.timeout)
    try:
        endpoint.url  # noqa: B018 (checks the URL now, not at the first request)
    except RecordError as error:
        raise ProbeUsageError(error.message, error.hint) from None
    return endpoint
