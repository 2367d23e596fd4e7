"""Write a ``Response`` as the typed event stream OpenAI sends for ``stream: true``.

In the order of OpenAI's streams (https://platform.openai.com/docs/api-reference/responses-streaming):
``response.created`` and ``response.in_progress`` (the Response with
``status: "in_progress"``, empty output and no usage); per output item
``response.output_item.added`` (the item without its text or arguments),
then for a message per part ``response.content_part.added``,
``response.output_text.delta``, ``response.output_text.done``,
``response.content_part.done``; for a function call
``response.function_call_arguments.delta`` and ``.done``; for a reasoning
item with a summary per part ``response.reasoning_summary_part.added``,
``response.reasoning_summary_text.delta`` / ``.done``,
``response.reasoning_summary_part.done``; then
``response.output_item.done`` with the whole item; last
``response.completed`` (``response.incomplete`` / ``response.failed`` by
status) with the whole Response. ``sequence_number`` counts from 0; the SSE
``event:`` name is the event's type. JSON is compact, as on OpenAI's wire.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.dialects.openai_responses.response import render_response
from toolwire.harness.model import Response, SSEEvent

_TERMINAL = {"incomplete": "response.incomplete", "failed": "response.failed"}


class _Writer:
    def __init__(self) -> None:
        self.events: list[SSEEvent] = []

    def emit(self, kind: str, **fields: Any) -> None:
        data = {"type": kind, "sequence_number": len(self.events), **fields}
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        self.events.append(SSEEvent(data=text, event=kind))


def _opened(item: dict[str, Any]) -> dict[str, Any]:
    """An item as ``output_item.added`` shows it: nothing streamed yet."""
    opened = dict(item)
    kind = item.get("type")
    if kind == "message":
        opened["content"] = []
    elif kind == "function_call":
        opened["arguments"] = ""
    elif kind == "reasoning":
        opened["summary"] = []
        opened.pop("encrypted_content", None)
    if "status" in opened:
        opened["status"] = "in_progress"
    return opened


def _message_events(writer: _Writer, item: dict[str, Any], where: dict[str, Any]) -> None:
    content = item.get("content")
    for index, part in enumerate(content if isinstance(content, list) else []):
        if not isinstance(part, dict):
            continue
        at = {**where, "content_index": index}
        text = part.get("text") if part.get("type") == "output_text" else None
        empty = {**part, "text": ""} if isinstance(text, str) else part
        writer.emit("response.content_part.added", **at, part=empty)
        if isinstance(text, str):
            writer.emit("response.output_text.delta", **at, delta=text, logprobs=[])
            writer.emit("response.output_text.done", **at, text=text, logprobs=[])
        writer.emit("response.content_part.done", **at, part=part)


def _reasoning_events(writer: _Writer, item: dict[str, Any], where: dict[str, Any]) -> None:
    summary = item.get("summary")
    for index, part in enumerate(summary if isinstance(summary, list) else []):
        text = part.get("text") if isinstance(part, dict) else None
        if not isinstance(text, str):
            continue
        at = {**where, "summary_index": index}
        writer.emit(
            "response.reasoning_summary_part.added", **at, part={"type": "summary_text", "text": ""}
        )
        writer.emit("response.reasoning_summary_text.delta", **at, delta=text)
        writer.emit("response.reasoning_summary_text.done", **at, text=text)
        writer.emit("response.reasoning_summary_part.done", **at, part=part)


def render_stream(response: Response) -> tuple[SSEEvent, ...]:
    body = render_response(response)
    envelope = {k: v for k, v in body.items() if k not in ("output", "usage")}
    envelope.update(status="in_progress", incomplete_details=None, output=[], usage=None)
    writer = _Writer()
    writer.emit("response.created", response=envelope)
    writer.emit("response.in_progress", response=envelope)
    for index, item in enumerate(body["output"]):
        writer.emit("response.output_item.added", output_index=index, item=_opened(item))
        where = {"item_id": item.get("id"), "output_index": index}
        if item.get("type") == "message":
            _message_events(writer, item, where)
        elif item.get("type") == "function_call":
            arguments = item.get("arguments")
            if isinstance(arguments, str):
                writer.emit("response.function_call_arguments.delta", **where, delta=arguments)
                writer.emit("response.function_call_arguments.done", **where, arguments=arguments)
        elif item.get("type") == "reasoning":
            _reasoning_events(writer, item, where)
        writer.emit("response.output_item.done", output_index=index, item=item)
    terminal = _TERMINAL.get(str(body.get("status")), "response.completed")
    writer.emit(terminal, response=body)
    return tuple(writer.events)
