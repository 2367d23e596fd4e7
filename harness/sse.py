"""Server-sent events: text <-> events, exactly as on the wire.

Follows the WHATWG event-stream format: events are separated by a blank
line, ``data:`` lines of one event are joined with ``\\n``, a single space
after the colon is not part of the value, lines starting with ``:`` are
comments, and one byte order mark (U+FEFF) before the stream is ignored
(left in, it would make the first line's field name "\ufeffdata" and drop
the first event). Rendering then parsing returns the same events.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolwire.harness.model import SSEEvent

_BOM = "\ufeff"


def parse_sse(text: str) -> tuple[SSEEvent, ...]:
    """Split an event-stream body into events (comments and empty events dropped)."""
    events: list[SSEEvent] = []
    data_lines: list[str] = []
    event_name: str | None = None
    event_id: str | None = None
    saw_field = False
    text = text.removeprefix(_BOM)
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line == "":
            if data_lines:
                events.append(SSEEvent(data="\n".join(data_lines), event=event_name, id=event_id))
            data_lines, event_name, event_id, saw_field = [], None, None, False
            continue
        if line.startswith(":"):
            continue
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        saw_field = True
        if name == "data":
            data_lines.append(value)
        elif name == "event":
            event_name = value
        elif name == "id":
            event_id = value
        # `retry:` and unknown fields are ignored, as the standard says.
    if saw_field and data_lines:
        events.append(SSEEvent(data="\n".join(data_lines), event=event_name, id=event_id))
    return tuple(events)


def render_sse(events: Iterable[SSEEvent]) -> str:
    """Write events as an event-stream body."""
    parts: list[str] = []
    for event in events:
        lines = []
        if event.event is not None:
            lines.append(f"event: {event.event}")
        if event.id is not None:
            lines.append(f"id: {event.id}")
        lines.extend(f"data: {line}" for line in event.data.split("\n"))
        parts.append("\n".join(lines) + "\n\n")
    return "".join(parts)
