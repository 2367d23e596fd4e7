"""stream.index_collision: two tool calls at one openai-chat ``index`` (a
second id or name arrives there), a second ``content_block_start`` for one
anthropic-messages index, or argument text that is two JSON values run
together (fragments of two calls merged).
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.stream_calls import call_path, calls_of, merged
from toolwire.conformance.readings.stream_issues import issue_findings as _issue_findings
from toolwire.conformance.readings.xml_values import preview
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import ANTHROPIC_STREAM, OPENAI_STREAM
from toolwire.conformance.stream.applies import stream_family, stream_with_calls
from toolwire.harness.model import ANTHROPIC_MESSAGES, StreamTranscript

INDEX_COLLISION = rule(
    "stream.index_collision",
    "MUST",
    "payload",
    "Parallel streamed calls keep distinct indices; arguments never merge across calls.",
    OPENAI_STREAM,
    ANTHROPIC_STREAM,
    evidence=(
        documented(OPENAI_STREAM, "tool_calls[].index identifies which call a delta belongs to"),
        documented(ANTHROPIC_STREAM, "each content block has its own index in the events"),
    ),
    fix=(
        "Give each streamed tool call its own index (openai-chat `tool_calls[].index`, "
        "anthropic content block index) and send each call's fragments under it."
    ),
)


COLLISION_CODES = {
    "openai": frozenset({"index_collision", "name_conflict"}),
    "anthropic": frozenset({"duplicate_block_start"}),
    # Gemini sends each functionCall whole in one part: no index to collide.
    "gemini": frozenset(),
    # Two items at one output_index are stream.item_reference's (SHOULD).
    "responses": frozenset(),
}


def check_index_collision(stream: StreamTranscript) -> list[Finding]:
    codes = COLLISION_CODES[stream_family(stream)]
    found = _issue_findings("stream.index_collision", [i for i in stream.issues if i.code in codes])
    for position, call in calls_of(stream):
        if merged(call):
            path = call_path(stream, position, call)
            found.append(
                finding(
                    "stream.index_collision",
                    f"the argument fragments of call #{position + 1} ({call.name}) join to "
                    f"several JSON values run together ({preview(call.raw_arguments)}): the "
                    "fragments of two calls were sent under one index",
                    path,
                    actual=call.raw_arguments,
                )
            )
    return found


def _shares_indices(stream: StreamTranscript) -> bool:
    """Two items streamed by index, which could collide: two tool calls in
    openai-chat, two content blocks in anthropic-messages."""
    if not stream.response.choices:
        return False
    if stream.dialect == ANTHROPIC_MESSAGES:
        return len(stream.response.message.blocks) >= 2
    return len(calls_of(stream)) >= 2


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.index_collision": stream_with_calls(check_index_collision, _shares_indices),
}
