from __future__ import annotations

from toolwire.harness.model import SSEEvent
from toolwire.harness.sse import parse_sse, render_sse


def test_parses_named_events_and_data_lines() -> None:
    text = (
        'event: message_start\ndata: {"type":"message_start"}\n\n'
        ": a comment\n\n"
        'event: ping\ndata: {"type": "ping"}\n\n'
        "data: [DONE]\n\n"
    )
    assert parse_sse(text) == (
        SSEEvent(data='{"type":"message_start"}', event="message_start"),
        SSEEvent(data='{"type": "ping"}', event="ping"),
        SSEEvent(data="[DONE]"),
    )


def test_multi_line_data_joined_and_crlf_accepted() -> None:
    assert parse_sse("data: a\r\ndata: b\r\nid: 7\r\n\r\n") == (SSEEvent(data="a\nb", id="7"),)


def test_only_one_space_after_colon_is_stripped() -> None:
    assert parse_sse("data:  two spaces\n\ndata:none\n\n") == (
        SSEEvent(data=" two spaces"),
        SSEEvent(data="none"),
    )


def test_last_event_without_trailing_blank_line_is_kept() -> None:
    assert parse_sse("data: {}\n") == (SSEEvent(data="{}"),)


def test_render_then_parse_is_identity() -> None:
    events = (
        SSEEvent(data='{"a": 1}', event="content_block_delta"),
        SSEEvent(data="line one\nline two", id="3"),
        SSEEvent(data=""),
        SSEEvent(data="[DONE]"),
    )
    assert parse_sse(render_sse(events)) == events
