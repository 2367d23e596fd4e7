"""stream.call_index: an openai-chat call that starts at an index other than
the next free one (the first call at 0, then 1, ...): openai-python's stream
helper subscripts its list of calls with the index
(src/openai/lib/streaming/chat/_completions.py) and fails on a gap, the Go
SDK's accumulator leaves an empty call in the gap (streamaccumulator.go,
BerriAI/litellm#32759); an Anthropic block index leaking into
``tool_calls[].index`` is the usual cause (router-for-me/CLIProxyAPI#5229,
NVIDIA-NeMo/Switchyard#712).
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.stream_issues import issue_findings as _issue_findings
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import (
    OPENAI_CHUNK,
    OPENAI_GO_ACCUMULATOR,
    OPENAI_PYTHON_STREAM_HELPER,
)
from toolwire.conformance.stream.applies import stream_with_calls
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI, OPENAI_RESPONSES, StreamTranscript

CALL_INDEX = rule(
    "stream.call_index",
    "MUST",
    "payload",
    "The streamed tool calls of an openai-chat choice take indices 0, 1, 2, ... in the "
    "order they start.",
    OPENAI_CHUNK,
    # The official SDK places each fragment with tool_calls[index] and fails on a gap.
    OPENAI_PYTHON_STREAM_HELPER,
    OPENAI_GO_ACCUMULATOR,
    dialects=frozenset({"openai-chat", "deepseek-chat"}),
    evidence=(
        rejected(
            "https://github.com/marimo-team/marimo/pull/7356",
            "IndexError on an out-of-bounds streamed tool call index (OpenAI-compatible)",
        ),
    ),
    fix=(
        "Number the streamed tool calls of a choice 0, 1, 2, ... in the order they start, "
        "not by the source's content block index."
    ),
)


def check_call_index(stream: StreamTranscript) -> list[Finding]:
    if stream.dialect == ANTHROPIC_MESSAGES:
        return []
    issues = [issue for issue in stream.issues if issue.code == "index_not_dense"]
    return _issue_findings("stream.call_index", issues)


def _openai_stream_with_calls(
    check: Callable[[StreamTranscript], list[Finding]],
) -> PayloadCheck:
    inner = stream_with_calls(check)

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        if payload.dialect in (ANTHROPIC_MESSAGES, GEMINI):
            # anthropic block indices are stream.event_order's; Gemini calls
            # come whole, with no index.
            return None
        if payload.dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES):
            return None  # block indices and output indices are stream.event_order's
        return inner(payload)

    return run


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.call_index": _openai_stream_with_calls(check_call_index),
}
