"""The tool calls of a reassembled stream, and which event started each.

The stream rules that judge calls (``stream.index_collision``,
``stream.partial_json``) share these views: the calls in order, whether a
call's arguments are two calls' fragments merged, and the event to point a
finding at. Kept apart from the stream rules' modules (``stream/<name>.py``), which
sort issue codes into rules.
"""

from __future__ import annotations

import json

from toolwire.harness import json_text
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_RESPONSES, StreamTranscript, ToolCall


def calls_of(stream: StreamTranscript) -> list[tuple[int, ToolCall]]:
    if not stream.response.choices:
        return []
    calls = [b for b in stream.response.message.blocks if isinstance(b, ToolCall)]
    return list(enumerate(calls))


def _json_values(text: str) -> list[object]:
    """The JSON values ``text`` holds back to back (empty when it is not such a run)."""
    decoder = json.JSONDecoder()
    values: list[object] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return values
        try:
            value, at = decoder.raw_decode(text, at)
        except ValueError:
            return []
        values.append(value)


def merged(call: ToolCall) -> bool:
    """Arguments that are several *different* JSON values run together: two calls
    merged under one index. The same value repeated is one call whose whole
    arguments were resent in each fragment: its fragments do not join to JSON,
    which is stream.partial_json's to report."""
    if call.arguments_error is None:
        return False
    values = _json_values(call.raw_arguments or "")
    return len(values) > 1 and any(value != values[0] for value in values[1:])


def call_path(stream: StreamTranscript, position: int, call: ToolCall) -> str:
    """The first event that carries the call, best effort."""
    for index, event in enumerate(stream.events):
        try:
            data = json_text.loads(event.data)
        except ValueError:
            continue
        if _event_starts_call(data, stream.dialect, position, call):
            return f"events[{index}]"
    return "events"


# The event that opens a call, per dialect with one: (event type, the key of
# the opened object, the key of the call's id in it).
_CALL_OPENERS = {
    OPENAI_RESPONSES: ("response.output_item.added", "item", "call_id"),
    ANTHROPIC_MESSAGES: ("content_block_start", "content_block", "id"),
}


def _event_starts_call(data: object, dialect: str, position: int, call: ToolCall) -> bool:
    if not isinstance(data, dict):
        return False
    opener = _CALL_OPENERS.get(dialect)
    if opener is not None:
        event_type, key, id_key = opener
        opened = data.get(key)
        return (
            data.get("type") == event_type
            and isinstance(opened, dict)
            and opened.get(id_key) == call.id
        )
    choices = data.get("choices")
    for choice in choices if isinstance(choices, list) else ():
        delta = choice.get("delta") if isinstance(choice, dict) else None
        fragments = delta.get("tool_calls") if isinstance(delta, dict) else None
        for fragment in fragments if isinstance(fragments, list) else ():
            if not isinstance(fragment, dict):
                continue
            if call.id and fragment.get("id") == call.id:
                return True
            if not call.id and fragment.get("index") == position:
                return True
    return False
