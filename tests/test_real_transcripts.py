"""Every real recording in ../shared/real-transcripts through the oracle.

Each request was accepted by the real API, so it must parse, render back to
itself (parse -> render -> parse is identity), and validate against its
dialect's schema; each response and stream must parse. Counts are reported
in the terminal summary (see tests/conftest.py).
"""

from __future__ import annotations

import pytest

from tests.support.real_transcripts import RealTranscript, load_real_transcripts, transcripts_dir
from toolwire.harness.dialects import get_codec
from toolwire.harness.schemas import validate_payload
from toolwire.harness.sse import parse_sse

COUNTS: dict[str, int] = {}


def _all() -> list[RealTranscript]:
    if not transcripts_dir().is_dir():
        return []
    return load_real_transcripts()


TRANSCRIPTS = _all()


def _count(what: str) -> None:
    COUNTS[what] = COUNTS.get(what, 0) + 1


def test_real_transcripts_are_present_or_skipped_with_a_reason() -> None:
    if not TRANSCRIPTS:
        pytest.skip(f"real transcripts not found at {transcripts_dir()}")
    assert len(TRANSCRIPTS) >= 80


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[t.name for t in TRANSCRIPTS])
def test_request_round_trips_and_validates(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    parsed = codec.parse_request(transcript.request_body)
    rendered = codec.render_request(parsed)
    assert rendered == transcript.request_body
    assert codec.parse_request(rendered) == parsed
    assert validate_payload(transcript.dialect, "request", transcript.request_body) == []
    _count(f"{transcript.dialect} requests")


@pytest.mark.parametrize(
    "transcript",
    [t for t in TRANSCRIPTS if t.kind == "response" and t.status_code == 200],
    ids=lambda t: t.name,
)
def test_response_round_trips(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    parsed = codec.parse_response(transcript.response_body)
    assert codec.render_response(parsed) == transcript.response_body
    assert codec.parse_response(codec.render_response(parsed)) == parsed
    _count(f"{transcript.dialect} responses")


@pytest.mark.parametrize(
    "transcript", [t for t in TRANSCRIPTS if t.kind == "stream"], ids=lambda t: t.name
)
def test_stream_reassembles(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    transcript_events = parse_sse(transcript.sse_text())
    reassembled = codec.parse_stream(transcript_events)
    assert reassembled.events == transcript_events
    assert reassembled.response.choices, "a stream reassembles into at least one choice"
    _count(f"{transcript.dialect} streams")
