"""stream.chunk_id: an openai-chat chunk whose ``id`` differs from the
stream's ("Each chunk has the same ID", OpenAI's chunk object reference; the
Go SDK's accumulator refuses such a chunk, streamaccumulator.go). An empty id
says nothing (Azure's content-filter chunk sends one first).
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.stream_issues import issue_findings as _issue_findings
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import OPENAI_CHUNK, OPENAI_GO_ACCUMULATOR
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_RESPONSES, StreamTranscript

CHUNK_ID = rule(
    "stream.chunk_id",
    "MUST",
    "payload",
    "Every chunk of one openai-chat stream carries the same id.",
    # The chunk object reference: "Each chunk has the same ID."
    OPENAI_CHUNK,
    OPENAI_GO_ACCUMULATOR,
    dialects=frozenset({"openai-chat", "deepseek-chat"}),
    evidence=(documented(OPENAI_CHUNK, "chunk id: each chunk has the same ID"),),
    fix=("Give every chunk of one openai-chat stream the id of its first chunk."),
)


def check_chunk_id(stream: StreamTranscript) -> list[Finding] | None:
    if stream.dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES) or not stream.response.id:
        return None  # no chunk id to compare
    issues = [issue for issue in stream.issues if issue.code == "id_changed"]
    return _issue_findings("stream.chunk_id", issues)


def _chunk_id(payload: PayloadUnderTest) -> list[Finding] | None:
    stream = payload.stream
    if stream is None or _data_chunks(stream) < 2:
        return None  # one chunk has no other id to differ from
    return check_chunk_id(stream)


def _data_chunks(stream: StreamTranscript) -> int:
    return sum(1 for event in stream.events if event.data.lstrip().startswith("{"))


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.chunk_id": _chunk_id,
}
