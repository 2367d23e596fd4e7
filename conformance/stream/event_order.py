"""stream.event_order: events out of the grammar
(https://platform.openai.com/docs/api-reference/chat-streaming,
https://docs.anthropic.com/en/docs/build-with-claude/streaming); what is not a
violation: ``stream/applies.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.stream_issues import issue_findings as _issue_findings
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import (
    ANTHROPIC_STREAM,
    OPENAI_PYTHON_RESPONSES_STREAM,
    OPENAI_STREAM,
    RESPONSES_STREAM,
)
from toolwire.conformance.stream.applies import stream_family
from toolwire.harness import json_text
from toolwire.harness.model import StreamIssue, StreamTranscript

EVENT_ORDER = rule(
    "stream.event_order",
    "MUST",
    "payload",
    "Stream events follow the dialect's grammar.",
    OPENAI_STREAM,
    ANTHROPIC_STREAM,
    RESPONSES_STREAM,
    OPENAI_PYTHON_RESPONSES_STREAM,
    evidence=(
        documented(
            ANTHROPIC_STREAM,
            "message_start, then per block start/delta/stop, then message_delta, message_stop",
        ),
        documented(OPENAI_STREAM, "chat.completion.chunk objects, ended by data: [DONE]"),
    ),
    fix=(
        "Follow the dialect's grammar: anthropic message_start, then for each block "
        "content_block_start / _delta / _stop, then message_delta and message_stop; openai "
        "chunks ended by `data: [DONE]`."
    ),
)


EVENT_ORDER_CODES = {
    "openai": frozenset(
        {
            "invalid_json",
            "fragment_without_start",
            "fragment_without_index",
            "missing_done",
            "after_done",
            "empty_stream",
        }
    ),
    "anthropic": frozenset(
        {
            "invalid_json",
            "event_type_mismatch",
            "missing_message_start",
            "duplicate_message_start",
            "message_start_content",
            "index_out_of_order",
            "delta_without_start",
            "delta_type_mismatch",
            "stop_without_start",
            "block_not_stopped",
            "missing_message_delta",
            "missing_message_stop",
            "after_message_stop",
        }
    ),
    # Gemini (harness/dialects/gemini/stream.py): a chunk that is not JSON or
    # not a GenerateContentResponse breaks every client. A missing
    # finishReason is not judged: real Gemini streams end without one
    # (pydantic-ai's test_google_no_finish_reason recording) and clients cope.
    "gemini": frozenset({"invalid_json", "invalid_chunk", "empty_stream"}),
    # What openai-python's ResponseStreamState refuses (RuntimeError or
    # IndexError) or cannot finish without: conformance/stream/responses_events.py.
    "responses": frozenset(
        {
            "invalid_json",
            "missing_created",
            "unknown_output_index",
            "delta_without_part",
            "missing_terminal",
            "empty_stream",
        }
    ),
}
# An error event may end a stream: what would have followed is then missing.
EXCUSED_BY_ERROR = {
    "openai": frozenset({"missing_done", "empty_stream"}),
    "anthropic": frozenset({"block_not_stopped", "missing_message_delta", "missing_message_stop"}),
    "gemini": frozenset({"empty_stream"}),
    "responses": frozenset({"missing_terminal", "empty_stream"}),
}
ERROR_CODES = frozenset({"stream_error", "error_event", "error_chunk"})


def _block_index(stream: StreamTranscript, issue: StreamIssue) -> int | None:
    if issue.event_index is None or issue.event_index >= len(stream.events):
        return None
    try:
        data = json_text.loads(stream.events[issue.event_index].data)
    except ValueError:
        return None
    index = data.get("index") if isinstance(data, dict) else None
    return index if isinstance(index, int) else None


def _collision_echoes(stream: StreamTranscript) -> set[int]:
    """Issues that only follow from an anthropic index collision: once a
    second block started at a used index, its deltas and stop arrive for a
    block already stopped. They are the collision, not a second fault."""
    collided: dict[int, int] = {}
    echoes: set[int] = set()
    for position, issue in enumerate(stream.issues):
        index = _block_index(stream, issue)
        if index is None or issue.event_index is None:
            continue
        if issue.code == "duplicate_block_start":
            collided.setdefault(index, issue.event_index)
        elif (
            issue.code in ("delta_without_start", "stop_without_start")
            and index in collided
            and issue.event_index > collided[index]
        ):
            echoes.add(position)
    return echoes


def check_event_order(stream: StreamTranscript) -> list[Finding]:
    family = stream_family(stream)
    codes = EVENT_ORDER_CODES[family]
    if any(issue.code in ERROR_CODES for issue in stream.issues):
        codes = codes - EXCUSED_BY_ERROR[family]
    if family == "anthropic" and _stop_reason(stream) == "max_tokens":
        # Both Anthropic SDKs accept a block cut by max_tokens without its
        # content_block_stop (their incomplete_partial_json_response fixture).
        codes = codes - {"block_not_stopped"}
    echoes = _collision_echoes(stream) if family == "anthropic" else set()
    issues = [i for n, i in enumerate(stream.issues) if i.code in codes and n not in echoes]
    return _issue_findings("stream.event_order", issues)


def _stop_reason(stream: StreamTranscript) -> str | None:
    choices = stream.response.choices
    return choices[0].stop_reason.canonical if choices else None


def _stream_only(check: Callable[[StreamTranscript], list[Finding]]) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        stream = payload.stream
        return None if stream is None else check(stream)

    return run


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.event_order": _stream_only(check_event_order),
}
