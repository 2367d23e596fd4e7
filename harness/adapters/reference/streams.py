"""Stream payloads: the adapter protocol's event lists <-> ``SSEEvent`` s.

The protocol (docs/adapters.md) carries a stream as a list of
``{"event": name-or-None, "data": parsed JSON or "[DONE]"}``; the event-stream
text is accepted too. A stream is converted through its reassembled message:
the source codec's ``parse_stream`` rebuilds the response, it is converted
like a non-streamed one, and the target codec's ``render_stream`` writes the
events its provider would send (so event grammar, indices and fragments are
the target's own, never patched chunk by chunk).
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.model import SSEEvent
from toolwire.harness.sse import parse_sse

DONE = "[DONE]"
_SHAPE = 'a stream is a list of {"event": name or null, "data": chunk} objects'


def events_in(payload: Any) -> tuple[SSEEvent, ...]:
    if isinstance(payload, str):
        return parse_sse(payload)
    if not isinstance(payload, list):
        raise ConversionError(f"stream payload is a {type(payload).__name__}", hint=_SHAPE)
    events = []
    for index, item in enumerate(payload):
        if not isinstance(item, dict) or "data" not in item:
            raise ConversionError(f"stream event {index} has no data", hint=_SHAPE)
        event = item.get("event")
        if event is not None and not isinstance(event, str):
            raise ConversionError(f"stream event {index}: event must be a string or null")
        data = item["data"]
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        events.append(SSEEvent(data=text, event=event))
    return tuple(events)


def events_out(events: tuple[SSEEvent, ...]) -> list[dict[str, Any]]:
    return [
        {"event": event.event, "data": event.data if event.data == DONE else json.loads(event.data)}
        for event in events
    ]
