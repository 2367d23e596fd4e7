"""A stream body in any of the forms real captures keep it, read as events.

Three forms are on the wire or in test suites' recordings:

* an event stream (SSE ``data:`` lines), read by ``toolwire.harness.sse``;
* one JSON array of chunks: what Gemini's ``:streamGenerateContent`` sends
  without ``?alt=sse`` (``Content-Type: application/json``; each element a
  whole ``GenerateContentResponse``,
  https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent);
* one chunk object per line, without the SSE framing (``chunks.txt``
  captures of vercel/ai and other suites).

The chunks of the last two carry no transport: an event's name is the
chunk's ``type`` where it has one (Anthropic, the Responses API name their
SSE events after it), and OpenAI Chat's ``data: [DONE]`` terminator, which
is SSE text and no chunk, is supplied after an OpenAI Chat chunk capture
rather than reported missing. ``stream_events`` answers None for a text in
none of these forms.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.model import SSEEvent
from toolwire.harness.sse import parse_sse


def stream_events(text: str) -> tuple[SSEEvent, ...] | None:
    """The events of a stream body in any of the three forms; None for none."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("["):
        try:
            value = json_text.loads(stripped)
        except (json.JSONDecodeError, RecursionError):
            return None
        return chunk_array_events(value)
    if any(line.startswith("data:") for line in stripped.splitlines()[:20]):
        return parse_sse(text)
    return json_lines_events(text)


def is_chunk_array(value: Any) -> bool:
    """A JSON array of stream chunks (and not toolwire's list of ``{event, data}``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and "data" not in item for item in value)
    )


def chunk_array_events(value: Any) -> tuple[SSEEvent, ...] | None:
    """The events of a JSON array of chunks; None when ``value`` is not one."""
    if not is_chunk_array(value):
        return None
    return _events([(json.dumps(chunk, ensure_ascii=False), chunk) for chunk in value])


def json_lines_events(text: str) -> tuple[SSEEvent, ...] | None:
    """The events of one chunk object per line; None when the text is not that."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    pairs: list[tuple[str, dict[str, Any]]] = []
    for line in lines:
        try:
            chunk = json_text.loads(line)
        except (json.JSONDecodeError, RecursionError):
            return None
        if not isinstance(chunk, dict):
            return None
        pairs.append((line, chunk))
    if len(pairs) < 2 and not _looks_like_chunk(pairs[0][1]):
        return None  # one JSON object is a body, not a capture of chunks
    return _events(pairs)


def _looks_like_chunk(chunk: dict[str, Any]) -> bool:
    kind = chunk.get("type")
    return chunk.get("object") == "chat.completion.chunk" or (
        isinstance(kind, str) and kind.startswith("response.")
    )


def _events(pairs: Sequence[tuple[str, dict[str, Any]]]) -> tuple[SSEEvent, ...]:
    events = []
    for data, chunk in pairs:
        kind = chunk.get("type")
        events.append(SSEEvent(data=data, event=kind if isinstance(kind, str) else None))
    last = pairs[-1][1] if pairs else {}
    if "choices" in last:  # an OpenAI Chat capture: its terminator is SSE text
        events.append(SSEEvent(data="[DONE]"))
    return tuple(events)
