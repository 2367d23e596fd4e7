"""A stream read whole: its events' JSON, and the text each field streams.

A model streams its text and a tool call's arguments a few characters per
event, so a key it repeats is in no single ``data:`` line. Both the
scrubber and the validator therefore also look at each streamed field
joined across the events (``joined_fields``): the string values found at
the same place of every event (the same keys, the same ``index`` of choice,
tool call or content block), in stream order. ``replace_span`` writes a
replacement back into the pieces that held a span of the joined text.

Events are read as the event-stream format says (``data:`` lines of one
event joined with a newline), keeping the line numbers of each event so
that an event can be rewritten in place with everything else untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from toolwire.harness import json_text

PathPart = str | int
# Fields every event repeats (ids, names of the event and model): no model
# output streams through them, and joined they are only long repetitions.
ENVELOPE_FIELDS = frozenset(
    {"id", "object", "model", "type", "role", "created", "system_fingerprint", "index"}
)


@dataclass
class StreamEvent:
    """One event: the indexes of its ``data:`` lines, and its data parsed as
    JSON (``None`` when it is not a JSON object or array)."""

    lines: list[int]
    data: str
    value: Any = None


@dataclass(frozen=True)
class Piece:
    event: int  # index into the events
    path: tuple[PathPart, ...]  # where the string is in that event's value
    start: int  # offset in the joined text
    value: str

    @property
    def end(self) -> int:
        return self.start + len(self.value)


@dataclass
class JoinedField:
    """One field's pieces across the stream and their text joined."""

    pieces: list[Piece] = field(default_factory=list)
    length: int = 0

    def add(self, event: int, path: tuple[PathPart, ...], value: str) -> None:
        self.pieces.append(Piece(event, path, self.length, value))
        self.length += len(value)

    @property
    def text(self) -> str:
        return "".join(piece.value for piece in self.pieces)


def read_events(lines: list[str]) -> list[StreamEvent]:
    """The events of an event-stream body split into ``lines`` (on ``\\n``)."""
    events: list[StreamEvent] = []
    current: list[int] = []
    for index, line in enumerate([*lines, ""]):
        stripped = line.rstrip("\r")
        if stripped == "":
            if current:
                events.append(_event(lines, current))
            current = []
        elif stripped.startswith("data:"):
            current.append(index)
    return events


def _event(lines: list[str], indexes: list[int]) -> StreamEvent:
    parts = []
    for index in indexes:
        value = lines[index].rstrip("\r")[5:]
        parts.append(value[1:] if value.startswith(" ") else value)
    data = "\n".join(parts)
    event = StreamEvent(indexes, data)
    if data.lstrip().startswith(("{", "[")):
        try:
            event.value = json_text.loads(data)
        except (ValueError, RecursionError):
            event.value = None
    return event


def joined_fields(events: list[StreamEvent]) -> list[JoinedField]:
    """Every string field streamed in more than one event, joined in order."""
    fields: dict[tuple[Any, ...], JoinedField] = {}
    for number, event in enumerate(events):
        if event.value is None:
            continue
        for key, path, value in _strings(event.value, (), ()):
            fields.setdefault(key, JoinedField()).add(number, path, value)
    return [joined for joined in fields.values() if len(joined.pieces) > 1]


def _strings(
    value: Any, path: tuple[PathPart, ...], key: tuple[Any, ...]
) -> Iterator[tuple[tuple[Any, ...], tuple[PathPart, ...], str]]:
    """(field key, path, string) of each string in ``value``. The key names
    the field, not the event: list positions give way to the ``index`` an
    item declares (OpenAI's choices and tool calls, Anthropic's blocks)."""
    if isinstance(value, str):
        yield key, path, value
    elif isinstance(value, dict):
        index = value.get("index")
        if isinstance(index, int) and not isinstance(index, bool):
            key = (*key, ("index", index))
        for name, item in value.items():
            if name not in ENVELOPE_FIELDS:
                yield from _strings(item, (*path, name), (*key, name))
    elif isinstance(value, list):
        for position, item in enumerate(value):
            declared = isinstance(item, dict) and isinstance(item.get("index"), int)
            yield from _strings(item, (*path, position), (*key, "[]" if declared else position))


def replace_span(
    joined: JoinedField, events: list[StreamEvent], start: int, end: int, replacement: str
) -> set[int]:
    """Replace ``joined.text[start:end]`` in the events' values: the first
    piece it touches gets ``replacement`` for its part, the others lose
    theirs. Returns the events changed."""
    changed: set[int] = set()
    placed = False
    for piece in joined.pieces:
        if piece.end <= start or piece.start >= end:
            continue
        local_start = max(start, piece.start) - piece.start
        local_end = min(end, piece.end) - piece.start
        new = piece.value[:local_start] + ("" if placed else replacement) + piece.value[local_end:]
        placed = True
        _set(events[piece.event].value, piece.path, new)
        changed.add(piece.event)
    return changed


def _set(value: Any, path: tuple[PathPart, ...], new: str) -> None:
    for part in path[:-1]:
        value = value[part]
    value[path[-1]] = new


def rewrite_events(lines: list[str], events: list[StreamEvent], changed: set[int]) -> None:
    """Each changed event's data lines become one ``data:`` line with its new
    JSON (at the first one's place); every other line stays as it was."""
    dropped: set[int] = set()
    for number in sorted(changed):
        event = events[number]
        first = event.lines[0]
        ending = "\r" if lines[first].endswith("\r") else ""
        lines[first] = f"data: {json.dumps(event.value, ensure_ascii=False)}{ending}"
        dropped.update(event.lines[1:])
    if dropped:
        lines[:] = [line for index, line in enumerate(lines) if index not in dropped]
