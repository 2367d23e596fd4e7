"""Reassemble an anthropic-messages SSE stream into the message it carries.

Grammar (https://platform.claude.com/docs/en/build-with-claude/streaming):
``message_start``; per content block ``content_block_start`` (index i),
``content_block_delta`` events, ``content_block_stop``; one or more
``message_delta`` (top-level changes such as ``stop_reason``, with cumulative
``usage``); ``message_stop``. ``ping`` may come anywhere, ``error`` may end
the stream, and the SSE ``event:`` name repeats the data's ``type``.

The reassembled message is built as the JSON a non-streamed call returns and
then parsed by ``parse_response``, so both paths give the same canonical
``Response``. Grammar problems never raise: each becomes a ``StreamIssue``
with a stable ``code`` (listed in ``ISSUE_CODES``) that rules may judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

from toolwire.harness import json_text
from toolwire.harness.dialects.anthropic_messages.blocks import parse_block
from toolwire.harness.dialects.anthropic_messages.response import parse_response
from toolwire.harness.dialects.partial_json import CUT_STOP_REASONS, cut_off_value
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    Choice,
    Response,
    SSEEvent,
    StreamIssue,
    StreamTranscript,
    ToolCall,
)

ISSUE_CODES = (
    "invalid_json",  # an event's data is not JSON
    "invalid_event",  # JSON, but not the shape its type requires
    "event_type_mismatch",  # SSE `event:` name differs from data.type
    "unknown_event",  # a data.type outside the documented events
    "missing_message_start",
    "duplicate_message_start",
    "message_start_content",  # message_start carried non-empty content
    "duplicate_block_start",  # a second content_block_start for one index
    "index_out_of_order",  # a block started at an index other than the next one
    "delta_without_start",  # a delta for an index never started or already stopped
    "delta_type_mismatch",  # e.g. text_delta on a tool_use block
    "unknown_delta",
    "stop_without_start",  # content_block_stop for an index never started / stopped
    "block_not_stopped",
    "invalid_partial_json",  # input_json_delta fragments do not join to JSON
    "input_cut_off",  # a tool input cut short by max_tokens, kept as the SDKs keep it
    "missing_message_delta",
    "missing_message_stop",
    "after_message_stop",
    "error_event",
)

# delta type -> (block types it may extend, block key it extends, delta key
# holding the fragment). Tool-like blocks (tool_use, server_tool_use,
# mcp_tool_use, ...) are recognised by their `input` key, hence `None`.
_DELTAS: dict[str, tuple[tuple[str, ...] | None, str, str]] = {
    "text_delta": (("text",), "text", "text"),
    "citations_delta": (("text",), "citations", "citation"),
    "thinking_delta": (("thinking",), "thinking", "thinking"),
    "signature_delta": (("thinking",), "signature", "signature"),
    "input_json_delta": (None, "input", "partial_json"),
    # Replaces the block's content and encrypted_content (as the SDKs do).
    "compaction_delta": (("compaction",), "content", "content"),
}


def _skeleton() -> dict[str, Any]:
    """The envelope assumed when a stream never sent message_start."""
    return {"type": "message", "role": "assistant", "content": []}


@dataclass
class _OpenBlock:
    block: dict[str, Any]
    json_parts: list[str] | None = None
    stopped: bool = False


@dataclass
class _BadArguments:
    text: str
    error: str
    position: int | None = None


@dataclass
class _Reassembler:
    issues: list[StreamIssue] = field(default_factory=list)
    message: dict[str, Any] | None = None
    blocks: dict[int, _OpenBlock] = field(default_factory=dict)
    bad_arguments: dict[int, _BadArguments] = field(default_factory=dict)
    saw_start: bool = False
    saw_delta: bool = False
    saw_stop: bool = False

    def note(self, code: str, message: str, position: int | None) -> None:
        self.issues.append(StreamIssue(code=code, message=message, event_index=position))

    def feed(self, position: int, event: SSEEvent) -> None:
        try:
            data = json_text.loads(event.data)
        except ValueError as exc:
            self.note("invalid_json", f"event data is not JSON: {exc}", position)
            return
        kind = data.get("type") if isinstance(data, dict) else None
        if not isinstance(kind, str):
            self.note("invalid_event", "event data is not an object with a `type`", position)
            return
        if event.event is not None and event.event != kind:
            self.note(
                "event_type_mismatch",
                f"SSE event {event.event!r} carries data of type {kind!r}",
                position,
            )
        if self.saw_stop:
            self.note("after_message_stop", f"{kind!r} event after message_stop", position)
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            self.note("unknown_event", f"unknown event type {kind!r}", position)
            return
        handler(self, position, data)

    def current_message(self, position: int) -> dict[str, Any]:
        if self.message is None:
            self.note("missing_message_start", "stream did not begin with message_start", position)
            self.message = _skeleton()
        return self.message

    def on_ping(self, position: int, data: dict[str, Any]) -> None:
        pass

    def on_error(self, position: int, data: dict[str, Any]) -> None:
        error = data.get("error")
        if isinstance(error, dict):
            text = f"{error.get('type', 'error')}: {error.get('message', '')}"
        else:
            text = "error event without an error object"
        self.note("error_event", text, position)

    def on_message_start(self, position: int, data: dict[str, Any]) -> None:
        started = data.get("message")
        problem = _envelope_problem(started) if isinstance(started, dict) else "no message object"
        if problem is not None or not isinstance(started, dict):
            self.note("invalid_event", f"message_start: {problem}", position)
            return
        if self.saw_start:
            self.note("duplicate_message_start", "second message_start", position)
            return
        self.saw_start = True
        if started.get("content"):
            self.note("message_start_content", "message_start content is not empty", position)
        if self.message is None:
            self.message = started
        else:  # a late start after events that needed a message: fill the gaps
            for key, value in started.items():
                self.message.setdefault(key, value)

    def on_block_start(self, position: int, data: dict[str, Any]) -> None:
        self.current_message(position)
        index, block = data.get("index"), data.get("content_block")
        if not _is_index(index) or not isinstance(block, dict):
            self.note(
                "invalid_event", "content_block_start needs index and content_block", position
            )
            return
        try:
            parse_block(block, f"events[{position}].content_block")
        except WireFormatError as exc:
            self.note("invalid_event", str(exc), position)
            return
        if index in self.blocks:
            self.note("duplicate_block_start", f"block {index} started twice", position)
            return
        if index != len(self.blocks):
            reason = f"block {index} started after {len(self.blocks)} other block(s)"
            self.note("index_out_of_order", reason, position)
        self.blocks[index] = _OpenBlock(block=block)
        served_by = block.get("to") if block.get("type") == "fallback" else None
        if isinstance(served_by, dict) and isinstance(served_by.get("model"), str):
            # A fallback block names the model that served the answer: the
            # non-streamed message carries that model (both SDKs relabel too).
            self.current_message(position)["model"] = served_by["model"]

    def on_block_delta(self, position: int, data: dict[str, Any]) -> None:
        index, delta = data.get("index"), data.get("delta")
        if not _is_index(index) or not isinstance(delta, dict) or "type" not in delta:
            self.note(
                "invalid_event", "content_block_delta needs index and a typed delta", position
            )
            return
        open_block = self.blocks.get(index)
        if open_block is None or open_block.stopped:
            state = "never started" if open_block is None else "already stopped"
            self.note("delta_without_start", f"delta for block {index}, {state}", position)
            return
        _apply_delta(self, position, index, open_block, delta)

    def on_block_stop(self, position: int, data: dict[str, Any]) -> None:
        index = data.get("index")
        if not _is_index(index):
            self.note("invalid_event", "content_block_stop needs an index", position)
            return
        open_block = self.blocks.get(index)
        if open_block is None or open_block.stopped:
            self.note("stop_without_start", f"stop for block {index}, not open", position)
            return
        open_block.stopped = True
        self.finish_block(index, open_block, position)

    def finish_block(self, index: int, open_block: _OpenBlock, position: int | None) -> None:
        if open_block.json_parts is None:
            return
        text = "".join(open_block.json_parts)
        if text == "":  # the documented meaning of an empty concatenation
            open_block.block["input"] = {}
            return
        try:
            open_block.block["input"] = json_text.loads(text)
        except ValueError as exc:
            # Judged in result(): a stream stopped by max_tokens may cut an input short.
            open_block.block["input"] = text
            self.bad_arguments[index] = _BadArguments(text=text, error=str(exc), position=position)

    def on_message_delta(self, position: int, data: dict[str, Any]) -> None:
        message = self.current_message(position)
        delta, usage = data.get("delta", {}), data.get("usage")
        if not isinstance(delta, dict) or not (usage is None or isinstance(usage, dict)):
            self.note("invalid_event", "message_delta needs delta and usage objects", position)
            return
        # The delta carries top-level changes (stop_reason, stop_sequence,
        # stop_details, container, ...). Counts in its usage are cumulative:
        # they replace those of message_start, whose other keys are kept.
        updated = {**message, **delta}
        if usage is not None:
            base = message.get("usage")
            updated["usage"] = {**(base if isinstance(base, dict) else {}), **usage}
        problem = _envelope_problem(updated)
        if problem is not None:
            self.note("invalid_event", f"message_delta: {problem}", position)
            return
        self.saw_delta = True
        message.update(updated)

    def on_message_stop(self, position: int, data: dict[str, Any]) -> None:
        self.current_message(position)
        self.saw_stop = True

    def resolve_bad_arguments(self, stop_reason: Any) -> None:
        """Inputs whose fragments are not JSON: at max_tokens, a prefix cut short
        keeps what anthropic-sdk-python keeps of it; anything else is reported."""
        last = max(self.blocks) if self.blocks else None  # only it can have been cut
        for index, bad in sorted(self.bad_arguments.items()):
            cut, value = (
                cut_off_value(bad.text)
                if stop_reason in CUT_STOP_REASONS and index == last
                else (False, None)
            )
            if cut:
                self.blocks[index].block["input"] = value
                del self.bad_arguments[index]
                reason = f"the input of block {index} was cut off by {stop_reason}: kept {value!r}"
                self.note("input_cut_off", reason[:300], bad.position)
            else:
                reason = f"input_json_delta fragments of block {index} are not JSON: {bad.error}"
                self.note("invalid_partial_json", reason, bad.position)

    def result(self) -> Response:
        if self.message is None:
            self.note("missing_message_start", "stream has no message_start", None)
            self.message = _skeleton()
        message = self.message
        for index, open_block in sorted(self.blocks.items()):
            if not open_block.stopped:
                self.note("block_not_stopped", f"block {index} has no content_block_stop", None)
                self.finish_block(index, open_block, None)
        if not self.saw_delta:
            self.note("missing_message_delta", "stream has no message_delta", None)
        if not self.saw_stop:
            self.note("missing_message_stop", "stream did not end with message_stop", None)
        self.resolve_bad_arguments(message.get("stop_reason"))
        order = sorted(self.blocks)
        message["content"] = [self.blocks[i].block for i in order]
        response = parse_response(message)
        return _mark_bad_arguments(response, [self.bad_arguments.get(i) for i in order])


def _envelope_problem(message: dict[str, Any]) -> str | None:
    """Why ``message`` (without its content) would not parse as a response."""
    try:
        parse_response({**message, "content": []})
    except WireFormatError as exc:
        return str(exc)
    return None


def _is_index(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _apply_delta(
    state: _Reassembler, position: int, index: int, open_block: _OpenBlock, delta: dict[str, Any]
) -> None:
    block, delta_type = open_block.block, delta["type"]
    # A delta type that is not a string (a list, an object) cannot be a key.
    spec = _DELTAS.get(delta_type) if isinstance(delta_type, str) else None
    if spec is None:
        state.note("unknown_delta", f"unknown delta type {delta_type!r}", position)
        return
    targets, block_key, delta_key = spec
    if ("input" not in block) if targets is None else (block.get("type") not in targets):
        state.note(
            "delta_type_mismatch",
            f"{delta_type} for block {index} of type {block.get('type')!r}",
            position,
        )
        return
    piece = delta.get(delta_key)
    if delta_type == "citations_delta" and isinstance(piece, dict):
        if not isinstance(block.get("citations"), list):
            block["citations"] = []
        block["citations"].append(piece)
    elif delta_type == "compaction_delta":
        # Each compaction_delta carries the whole summary: it replaces, not appends.
        block["content"] = piece
        if "encrypted_content" in delta:
            block["encrypted_content"] = delta["encrypted_content"]
    elif delta_type == "citations_delta" or not isinstance(piece, str):
        state.note("invalid_event", f"{delta_type} has no valid `{delta_key}`", position)
    elif delta_type == "input_json_delta":
        open_block.json_parts = [*(open_block.json_parts or []), piece]
    else:
        existing = block.get(block_key)
        block[block_key] = (existing if isinstance(existing, str) else "") + piece


def _mark_bad_arguments(response: Response, bad: list[_BadArguments | None]) -> Response:
    """A tool_use whose fragments were not JSON: arguments unknown, text kept."""
    if not any(bad):
        return response
    blocks = list(response.message.blocks)
    for position, problem in enumerate(bad):
        call = blocks[position]
        if problem is not None and isinstance(call, ToolCall):
            blocks[position] = replace(
                call,
                arguments=None,
                raw_arguments=problem.text,
                arguments_error=problem.error,
            )
    choice: Choice = response.choices[0]
    message = replace(choice.message, blocks=tuple(blocks))
    return replace(response, choices=(replace(choice, message=message),))


_HANDLERS = {
    "ping": _Reassembler.on_ping,
    "error": _Reassembler.on_error,
    "message_start": _Reassembler.on_message_start,
    "content_block_start": _Reassembler.on_block_start,
    "content_block_delta": _Reassembler.on_block_delta,
    "content_block_stop": _Reassembler.on_block_stop,
    "message_delta": _Reassembler.on_message_delta,
    "message_stop": _Reassembler.on_message_stop,
}


def parse_stream(events: Sequence[SSEEvent]) -> StreamTranscript:
    state = _Reassembler()
    for position, event in enumerate(events):
        state.feed(position, event)
    response = state.result()
    return StreamTranscript(
        dialect=ANTHROPIC_MESSAGES,
        events=tuple(events),
        response=response,
        issues=tuple(state.issues),
    )
