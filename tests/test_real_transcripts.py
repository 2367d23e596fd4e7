"""Every real recording in ../shared (both folders) through the oracle.

Each request was accepted by the real API, so it must parse, render back to
itself (parse -> render -> parse is identity; a Gemini body written with
proto field names in snake_case renders in lowerCamelCase, which the API
reads the same), and validate against its dialect's schema; each response
and stream must parse, each stream in the form it was captured in (SSE, a
JSON array of chunks, one chunk per line). Recordings that kept only the
response have no request to read. Counts are reported in the terminal
summary (see tests/conftest.py).
"""

from __future__ import annotations

import pytest

from tests.support.real_transcripts import (
    RealTranscript,
    load_real_transcripts,
    transcript_dirs,
    transcripts_dir,
    with_requests,
)
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.gemini.field_names import camel_case_fields
from toolwire.harness.schemas import validate_payload
from toolwire.harness.sse import parse_sse
from toolwire.harness.stream_forms import stream_events

COUNTS: dict[str, int] = {}


def _all() -> list[RealTranscript]:
    if not transcript_dirs():
        return []
    return load_real_transcripts()


TRANSCRIPTS = _all()


def _count(what: str) -> None:
    COUNTS[what] = COUNTS.get(what, 0) + 1


def test_real_transcripts_are_present_or_skipped_with_a_reason() -> None:
    if not TRANSCRIPTS:
        pytest.skip(f"real transcripts not found at {transcripts_dir()}")
    folders = {t.folder for t in TRANSCRIPTS}
    assert len(TRANSCRIPTS) >= 78 * len(folders)


def test_recordings_without_a_request_are_read_too() -> None:
    """The captures that kept only the response (null request_body) are not dropped."""
    if not any(t.folder == "real-transcripts-responses-gemini" for t in TRANSCRIPTS):
        pytest.skip("real-transcripts-responses-gemini not found")
    bodiless = [t for t in TRANSCRIPTS if t.request_body is None]
    assert bodiless, "the folder's README promises response-only captures"
    assert {t.kind for t in bodiless} == {"response", "stream"}


@pytest.mark.parametrize(
    "transcript", with_requests(TRANSCRIPTS), ids=[t.name for t in with_requests(TRANSCRIPTS)]
)
def test_request_round_trips_and_validates(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    body = transcript.request_body
    assert body is not None
    parsed = codec.parse_request(body)
    rendered = codec.render_request(parsed)
    if transcript.dialect == "gemini" and rendered != body:
        assert rendered == camel_case_fields(body)
    else:
        assert rendered == body
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


@pytest.mark.parametrize(
    "transcript",
    [t for t in TRANSCRIPTS if t.kind == "stream" and t.stream_format != "sse"],
    ids=lambda t: t.name,
)
def test_stream_reads_in_the_form_it_was_captured_in(transcript: RealTranscript) -> None:
    """A JSON array of chunks or a chunk per line gives the events SSE gives."""
    codec = get_codec(transcript.dialect)
    events = stream_events(transcript.wire_text())
    assert events is not None, transcript.stream_format
    assert codec.parse_stream(events) == codec.parse_stream(parse_sse(transcript.sse_text()))
    _count(f"{transcript.dialect} streams as {transcript.stream_format}")
