"""Write a ``Response`` as the SSE events Anthropic sends for it.

Shapes follow https://platform.claude.com/docs/en/build-with-claude/streaming
and real recordings: ``message_start`` carries the message with empty
``content``, ``stop_reason``/``stop_sequence`` null and a placeholder
``output_tokens``; a ``ping`` follows the first ``content_block_start``; each
block starts empty (text ``""``; thinking ``""`` with signature ``""``;
tool-like blocks ``input: {}``) and fills through deltas (``text_delta``,
``citations_delta``, ``thinking_delta`` then ``signature_delta``,
``input_json_delta`` starting with an empty fragment); blocks with nothing to
stream (``redacted_thinking``, server tool results) come whole in their start
event. ``message_delta`` carries the stop reason, the fields only known at the
end (``stop_details``, ``container``) and the cumulative usage; then
``message_stop``. Reassembling the events gives back ``render_response``'s
message with its content as blocks.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.dialects.anthropic_messages.blocks import render_block
from toolwire.harness.dialects.anthropic_messages.response import render_response
from toolwire.harness.model import Response, SSEEvent, ToolCall

# Top-level fields a stream reports in message_delta rather than message_start.
_END_FIELDS = ("stop_reason", "stop_sequence", "stop_details", "container")
# Usage keys real streams send only in message_start.
_START_ONLY_USAGE = ("cache_creation", "service_tier", "inference_geo")


def render_stream(response: Response) -> tuple[SSEEvent, ...]:
    final = render_response(response)
    events: list[dict[str, Any]] = [{"type": "message_start", "message": _start_message(final)}]
    for index, block in enumerate(response.message.blocks):
        rendered = render_block(block)
        if isinstance(block, ToolCall) and block.arguments is None and block.raw_arguments:
            # Arguments that never parsed: stream their text as it was, so the
            # reassembled call reports the same error.
            start = {**rendered, "input": {}}
            fragments = [block.raw_arguments]
            events.append(_block_start(index, start))
            events.extend(_delta(index, "input_json_delta", partial_json=f) for f in fragments)
        else:
            events.extend(_block_events(index, rendered))
        events.append({"type": "content_block_stop", "index": index})
    # Real streams send their first ping right after the first block starts.
    ping_at = 2 if response.message.blocks else 1
    events.insert(ping_at, {"type": "ping"})
    events.append(_message_delta(final))
    events.append({"type": "message_stop"})
    return tuple(_sse(event) for event in events)


def _start_message(final: dict[str, Any]) -> dict[str, Any]:
    start: dict[str, Any] = {}
    for key, value in final.items():
        if key == "content":
            start[key] = []
        elif key == "container":
            continue
        elif key in _END_FIELDS:
            start[key] = None
        elif key == "usage" and isinstance(value, dict):
            start[key] = _start_usage(value)
        else:
            start[key] = value
    return start


def _start_usage(usage: dict[str, Any]) -> dict[str, Any]:
    start = dict(usage)
    output = usage.get("output_tokens")
    if isinstance(output, int):
        start["output_tokens"] = min(1, output)  # a placeholder; message_delta has the total
    return start


def _message_delta(final: dict[str, Any]) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "message_delta",
        "delta": {key: final[key] for key in _END_FIELDS if key in final},
    }
    usage = final.get("usage")
    if isinstance(usage, dict):
        event["usage"] = {k: v for k, v in usage.items() if k not in _START_ONLY_USAGE}
    return event


def _block_events(index: int, block: dict[str, Any]) -> list[dict[str, Any]]:
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        citations = block.get("citations")
        start = {**block, "text": ""}
        events = [_block_start(index, start)]
        if isinstance(citations, list):
            start["citations"] = []
            events.extend(_delta(index, "citations_delta", citation=c) for c in citations)
        if block["text"]:
            events.append(_delta(index, "text_delta", text=block["text"]))
        return events
    if kind == "thinking":
        start = {**block}
        events = [_block_start(index, start)]
        for key, delta_type in (("thinking", "thinking_delta"), ("signature", "signature_delta")):
            value = block.get(key)
            if isinstance(value, str):
                start[key] = ""
                if value:
                    events.append(_delta(index, delta_type, **{key: value}))
        return events
    if "input" in block:
        start = {**block, "input": {}}
        fragments = [""]
        if block["input"] != {}:
            fragments.append(json.dumps(block["input"], ensure_ascii=False))
        return [
            _block_start(index, start),
            *(_delta(index, "input_json_delta", partial_json=f) for f in fragments),
        ]
    return [_block_start(index, block)]


def _block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _delta(index: int, delta_type: str, **payload: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": {"type": delta_type, **payload}}


def _sse(event: dict[str, Any]) -> SSEEvent:
    # Anthropic sends compact JSON and names each event after its type.
    return SSEEvent(
        data=json.dumps(event, ensure_ascii=False, separators=(",", ":")), event=event["type"]
    )
