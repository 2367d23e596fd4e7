"""Reassemble a Responses stream (``stream: true``) into its ``Response``.

The stream is a sequence of typed events, each a JSON object with ``type``
and a ``sequence_number`` (https://platform.openai.com/docs/api-reference/responses-streaming):
``response.created`` (the Response with empty output), then per output item
``response.output_item.added`` (``output_index``, ``item``), its content
events (``response.content_part.added`` / ``.done``,
``response.output_text.delta`` / ``.done``,
``response.function_call_arguments.delta`` / ``.done``,
``response.reasoning_summary_part.*``, ``response.reasoning_summary_text.*``,
``response.reasoning_text.delta`` / ``.done`` (raw reasoning, a reasoning
item's ``content`` of ``reasoning_text`` parts, by ``content_index``),
each naming ``item_id`` and ``output_index``, text events also
``content_index`` / ``summary_index``) and ``response.output_item.done``;
last ``response.completed``, ``response.incomplete`` or ``response.failed``
with the whole Response. An ``error`` event may end the stream.

The reassembled response is the terminal event's Response (what
openai-python's ``ResponseStreamState`` returns as the final response; when
that event carries no output, the items the ``output_item.done`` events
finished). A terminal Response without ``status`` takes it from the event's
type (``response.completed`` is "emitted when the model response is
complete"), which says the same. Problems are noted as ``StreamIssue`` s with these codes:

* ``invalid_json``: an event whose data is not a JSON object with a type;
* ``missing_created``: the first event is not ``response.created``
  (openai-python raises "Expected to have received response.created");
* ``sequence_not_increasing``: a ``sequence_number`` not above the previous;
* ``unknown_output_index``: a content event for an output index that no
  ``output_item.added`` opened (openai-python raises "Received a content
  event for output index ... before receiving its output item");
* ``delta_without_part``: a text delta for a ``content_index`` that no
  ``response.content_part.added`` opened (openai-python indexes the item's
  content list with it and fails);
* ``duplicate_output_index``: a second ``output_item.added`` at one index;
* ``item_id_mismatch``: an event's ``item_id`` is not the id of the item at
  its ``output_index``;
* ``text_done_mismatch`` / ``arguments_done_mismatch``: a ``.done`` event's
  ``text`` / ``arguments`` differs from the deltas joined;
* ``item_done_mismatch``: ``output_item.done`` carries text or arguments
  other than the deltas built;
* ``output_mismatch``: the terminal Response's output differs from the
  items the stream finished;
* ``missing_terminal`` (no completed / incomplete / failed event),
  ``after_terminal`` (events after it), ``error_event``, ``empty_stream``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_responses.response import parse_response
from toolwire.harness.dialects.openai_responses.stream_items import (
    count_items,
    essence,
    first_field_difference,
    item_name,
    kinds,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    OPENAI_RESPONSES,
    SSEEvent,
    StreamIssue,
    StreamTranscript,
    issue_value,
)

TERMINAL = frozenset(("response.completed", "response.incomplete", "response.failed"))
_TEXT_DELTA = ("response.output_text.delta", "response.refusal.delta")
_TEXT_DONE = ("response.output_text.done", "response.refusal.done")
_PART_FIELD = {"response.output_text.done": "text", "response.refusal.done": "refusal"}


class _Item:
    def __init__(self, item: Mapping[str, Any]) -> None:
        self.item = dict(item)
        self.texts: dict[int, str] = {}
        self.summaries: dict[int, str] = {}
        self.reasonings: dict[int, str] = {}  # reasoning_text parts by content_index
        self.arguments = ""
        self.parts: set[int] = set()
        self.done: dict[str, Any] | None = None

    @property
    def id(self) -> Any:
        return self.item.get("id")

    def built(self) -> dict[str, Any]:
        """The item as the deltas built it (text parts, summary, arguments)."""
        item = dict(self.item)
        kind = item.get("type")
        if kind == "message":
            item["content"] = [{"text": self.texts[i]} for i in sorted(self.texts)]
        elif kind == "function_call":
            item["arguments"] = self.arguments or item.get("arguments", "")
        elif kind == "reasoning":
            if self.summaries:
                item["summary"] = [{"text": self.summaries[i]} for i in sorted(self.summaries)]
            if self.reasonings:
                item["content"] = [
                    {"type": "reasoning_text", "text": self.reasonings[i]}
                    for i in sorted(self.reasonings)
                ]
        return item


class _Reassembler:
    def __init__(self) -> None:
        self.issues: list[StreamIssue] = []
        self.index = 0
        self.items: dict[int, _Item] = {}
        self.snapshot: dict[str, Any] | None = None
        self.terminal: dict[str, Any] | None = None
        self.last_sequence: int | None = None
        self.seen_any = False

    def issue(self, code: str, message: str, *compared: Any) -> None:
        """Note a problem; a mismatch passes what was said and what was built."""
        values = [issue_value(value) for value in compared]
        self.issues.append(StreamIssue(code, message, self.index, *values))

    def feed(self, event: SSEEvent) -> None:
        if event.data.strip() == "[DONE]":
            return  # some proxies end with it; the Responses grammar has none
        try:
            data = json.loads(event.data)
        except ValueError:
            self.issue("invalid_json", f"event data is not JSON: {event.data[:80]!r}")
            return
        kind = data.get("type") if isinstance(data, dict) else None
        if not isinstance(kind, str):
            self.issue("invalid_json", "event data is not a JSON object with a string type")
            return
        self.check_order(kind, data)
        self.seen_any = True
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, data)
        elif kind.endswith(".delta") or kind.endswith(".done"):
            self.item_for(data)  # a newer content event: its item must still exist

    def check_order(self, kind: str, data: Mapping[str, Any]) -> None:
        if not self.seen_any and kind != "response.created":
            self.issue("missing_created", f"the stream starts with {kind}, not response.created")
        if self.terminal is not None:
            self.issue("after_terminal", f"{kind} after the response ended")
        sequence = data.get("sequence_number")
        if isinstance(sequence, int) and not isinstance(sequence, bool):
            if self.last_sequence is not None and sequence <= self.last_sequence:
                self.issue(
                    "sequence_not_increasing",
                    f"sequence_number {sequence} follows {self.last_sequence}",
                )
            self.last_sequence = sequence

    def item_for(self, data: Mapping[str, Any]) -> _Item | None:
        index = data.get("output_index")
        state = self.items.get(index) if isinstance(index, int) else None
        if state is None:
            self.issue(
                "unknown_output_index",
                f"{data.get('type')} for output_index {index!r}, which no "
                "response.output_item.added opened",
            )
            return None
        item_id = data.get("item_id")
        if "item_id" in data and state.id is not None and item_id != state.id:
            self.issue(
                "item_id_mismatch",
                f"{data.get('type')} names item {item_id!r} at output_index {index}, "
                f"whose item is {state.id!r}",
            )
        return state

    # --- handlers ---------------------------------------------------------

    def created(self, data: Mapping[str, Any]) -> None:
        response = data.get("response")
        if isinstance(response, dict) and self.snapshot is None:
            self.snapshot = dict(response)

    def item_added(self, data: Mapping[str, Any]) -> None:
        index, item = data.get("output_index"), data.get("item")
        if not isinstance(index, int) or not isinstance(item, dict):
            self.issue("invalid_json", "response.output_item.added without output_index or item")
            return
        if index in self.items:
            self.issue("duplicate_output_index", f"a second item added at output_index {index}")
        self.items[index] = _Item(item)

    def part_added(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        if state is not None:
            state.parts.add(_int(data.get("content_index")))

    def text_delta(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        delta = data.get("delta")
        if state is not None and isinstance(delta, str):
            index = _int(data.get("content_index"))
            if index not in state.parts and index not in state.texts:
                self.issue(
                    "delta_without_part",
                    f"{data.get('type')} for content_index {index}, which no "
                    "response.content_part.added opened",
                )
            state.texts[index] = state.texts.get(index, "") + delta

    def text_done(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        field = _PART_FIELD[str(data.get("type"))]
        text = data.get(field)
        index = _int(data.get("content_index"))
        if state is not None and index in state.texts and text != state.texts[index]:
            self.issue(
                "text_done_mismatch",
                f"{data.get('type')} of {item_name(state.item, _int(data.get('output_index')))} "
                f"(content_index {index}) states a {field} other than its deltas joined",
                text,
                state.texts[index],
            )
        elif state is not None and isinstance(text, str) and index not in state.texts:
            state.texts[index] = text

    def summary_delta(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        delta = data.get("delta")
        if state is not None and isinstance(delta, str):
            index = _int(data.get("summary_index"))
            state.summaries[index] = state.summaries.get(index, "") + delta

    def reasoning_delta(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        delta = data.get("delta")
        if state is not None and isinstance(delta, str):
            index = _int(data.get("content_index"))
            state.reasonings[index] = state.reasonings.get(index, "") + delta

    def reasoning_done(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        text = data.get("text")
        index = _int(data.get("content_index"))
        if state is not None and isinstance(text, str) and index not in state.reasonings:
            state.reasonings[index] = text  # a stream that sent no deltas

    def arguments_delta(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        delta = data.get("delta")
        if state is not None and isinstance(delta, str):
            state.arguments += delta

    def arguments_done(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        arguments = data.get("arguments")
        if state is not None and state.arguments and arguments != state.arguments:
            self.issue(
                "arguments_done_mismatch",
                "response.function_call_arguments.done of "
                f"{item_name(state.item, _int(data.get('output_index')))} states arguments "
                "other than its deltas joined",
                arguments,
                state.arguments,
            )
        elif state is not None and isinstance(arguments, str) and not state.arguments:
            state.arguments = arguments

    def item_done(self, data: Mapping[str, Any]) -> None:
        state = self.item_for(data)
        item = data.get("item")
        if state is None or not isinstance(item, dict):
            return
        streamed = state.texts or state.arguments or state.summaries
        if streamed and essence(state.built())[2:] != essence(item)[2:]:
            name, said, built = first_field_difference(item, state.built())
            where = item_name(state.item, _int(data.get("output_index")))
            self.issue(
                "item_done_mismatch",
                f"response.output_item.done of {where} differs in its {name} from what its "
                "deltas built",
                said,
                built,
            )
        state.done = item

    def ended(self, data: Mapping[str, Any]) -> None:
        response = data.get("response")
        self.terminal = dict(response) if isinstance(response, dict) else {}
        if self.terminal.get("status") is None:
            # The event's type states the status its Response omits.
            self.terminal["status"] = str(data.get("type", "")).removeprefix("response.")

    def error(self, data: Mapping[str, Any]) -> None:
        message = data.get("message")
        self.issue("error_event", f"error event: {str(message)[:200]}")

    # --- result -----------------------------------------------------------

    def finished_output(self) -> list[dict[str, Any]]:
        return [
            state.done if state.done is not None else state.built()
            for _, state in sorted(self.items.items())
        ]

    def output_mismatch(self, terminal: list[Any], finished: list[dict[str, Any]]) -> None:
        for index, (said, built) in enumerate(zip(terminal, finished, strict=False)):
            if essence(said) != essence(built):
                name, said_value, built_value = first_field_difference(said, built)
                self.issue(
                    "output_mismatch",
                    f"the final Response's output[{index}] ({item_name(built, index)}) "
                    f"differs in its {name} from what the stream's events built",
                    said_value,
                    built_value,
                )
                return
        self.issue(
            "output_mismatch",
            f"the final Response's output has {count_items(len(terminal))}, the stream's events "
            f"finished {count_items(len(finished))}",
            kinds(terminal),
            kinds(finished),
        )

    def finish(self) -> dict[str, Any]:
        if not self.seen_any:
            self.issue("empty_stream", "the stream has no events")
        if self.terminal is None and not any(i.code == "error_event" for i in self.issues):
            self.issue("missing_terminal", "the stream ends without response.completed")
        finished = self.finished_output()
        if self.terminal is not None and isinstance(self.terminal.get("output"), list):
            terminal_output = self.terminal["output"]
            if self.items and [essence(i) for i in terminal_output] != [
                essence(i) for i in finished
            ]:
                self.output_mismatch(terminal_output, finished)
            return self.terminal
        base = dict(self.terminal or self.snapshot or {})
        base["output"] = finished
        return base


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


_HANDLERS: dict[str, Callable[[_Reassembler, Mapping[str, Any]], Any]] = {
    "response.created": _Reassembler.created,
    "response.output_item.added": _Reassembler.item_added,
    "response.output_item.done": _Reassembler.item_done,
    "response.content_part.added": _Reassembler.part_added,
    "response.content_part.done": lambda self, data: self.item_for(data),
    "response.output_text.delta": _Reassembler.text_delta,
    "response.refusal.delta": _Reassembler.text_delta,
    "response.output_text.done": _Reassembler.text_done,
    "response.refusal.done": _Reassembler.text_done,
    "response.function_call_arguments.delta": _Reassembler.arguments_delta,
    "response.function_call_arguments.done": _Reassembler.arguments_done,
    "response.reasoning_summary_text.delta": _Reassembler.summary_delta,
    "response.reasoning_summary_part.added": lambda self, data: self.item_for(data),
    "response.reasoning_summary_part.done": lambda self, data: self.item_for(data),
    "response.reasoning_summary_text.done": lambda self, data: self.item_for(data),
    "response.reasoning_text.delta": _Reassembler.reasoning_delta,
    "response.reasoning_text.done": _Reassembler.reasoning_done,
    "response.completed": _Reassembler.ended,
    "response.incomplete": _Reassembler.ended,
    "response.failed": _Reassembler.ended,
    "error": _Reassembler.error,
}


def parse_stream(events: Sequence[SSEEvent]) -> StreamTranscript:
    reassembler = _Reassembler()
    for index, event in enumerate(events):
        reassembler.index = index
        reassembler.feed(event)
    reassembler.index = len(events) - 1 if events else 0
    body = reassembler.finish()
    if "output" not in body:
        body["output"] = []
    try:
        response = parse_response(body)
    except WireFormatError as error:
        reassembler.issue("invalid_json", f"the final Response does not parse: {error}")
        response = parse_response({"output": []})
    return StreamTranscript(
        dialect=OPENAI_RESPONSES,
        events=tuple(events),
        response=response,
        issues=tuple(reassembler.issues),
    )
