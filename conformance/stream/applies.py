"""What the stream checks of a streamed response share: which grammar a
stream follows, and when a check has something to judge. Holds no rule: each
is defined in ``conformance/stream/<name>.py``.

The codecs' stream reassemblers note what they see as ``StreamIssue`` s with
stable codes; the payload checks sort those codes into rules
(``index_collision.py``, ``event_order.py``, ``partial_json.py``,
``chunk_id.py``, ``call_index.py``, ``responses_events.py``).

Not violations: the real-server quirks of WIRE.md 1.1 (repeated ``id:""``
on fragments, a trailing empty-arguments fragment), what the official SDKs
accept (chunks without a ``finish_reason`` key before the last, as xAI and
DashScope send them; Azure's first chunk with empty ``choices``, an empty id
and ``prompt_filter_results``; an anthropic stream stopped by ``max_tokens``
whose last block never got its ``content_block_stop``, as in
anthropic-sdk-python's incomplete_partial_json_response fixture), an
anthropic ``ping``, event or delta types added after the docs were written
(Anthropic asks clients to ignore unknown events), and an ``error`` event
ending a stream early (both dialects document it), which also excuses the
end-of-stream events that then never come. Shape problems of one event
(``invalid_chunk``, ``invalid_event``, ``arguments_not_string``) belong to
``schema.response``.

One problem repeated through a stream (the same issue code on many events)
is one finding that says how many times and where it first and last showed.

A call the output limit cut off (``cut_last_call``): the last call of a
response that stopped at the limit while writing it. Whether the client
learns of the cut is fidelity.stop_reason's to judge in a conversion;
stream.reassembly leaves a withheld cut call to it (one defect, one verdict).

Elsewhere: ``reassembly.py`` (the conversion rule stream.reassembly),
``readings/stream_calls.py`` (the streamed calls and the event that started each).
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.stream_calls import calls_of
from toolwire.harness.dialects.partial_json import cut_off_value
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    Response,
    StreamTranscript,
    ToolCall,
)


def stream_family(stream: StreamTranscript) -> str:
    if stream.dialect == GEMINI:
        return "gemini"
    if stream.dialect == OPENAI_RESPONSES:
        return "responses"
    return "anthropic" if stream.dialect == ANTHROPIC_MESSAGES else "openai"


def stream_with_calls(
    check: Callable[[StreamTranscript], list[Finding]],
    exercised: Callable[[StreamTranscript], bool] | None = None,
) -> PayloadCheck:
    """Run ``check`` on a stream; no verdict when it streamed nothing the rule
    judges (by default: no tool call), unless the check finds something anyway."""

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        stream = payload.stream
        if stream is None:
            return None
        found = check(stream)
        if found or (exercised or _has_calls)(stream):
            return found
        return None  # nothing to judge

    return run


def _has_calls(stream: StreamTranscript) -> bool:
    return bool(calls_of(stream))


def cut_prefix(call: ToolCall) -> bool:
    """The call's arguments text is the start of one JSON value cut short."""
    return call.raw_arguments is not None and cut_off_value(call.raw_arguments)[0]


def cut_last_call(payload: PayloadUnderTest) -> bool:
    """The response stopped at the output limit while its last call was being
    written: the anthropic reader noted the input cut off, or the call's
    arguments text is a JSON prefix cut short."""
    response = payload.response
    if not isinstance(response, Response) or response.stop_reason.canonical != "max_tokens":
        return False
    stream = payload.stream
    if stream is not None and any(issue.code == "input_cut_off" for issue in stream.issues):
        return True
    calls = [block for block in response.message.blocks if isinstance(block, ToolCall)]
    return bool(calls) and cut_prefix(calls[-1])
