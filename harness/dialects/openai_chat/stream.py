"""Reassemble a Chat Completions SSE stream into the ``Response`` it carries.

Each event's data is a ``chat.completion.chunk`` or ``[DONE]``. Per choice
index: ``content`` deltas concatenate, ``reasoning_content`` / ``reasoning``
deltas concatenate, tool-call fragments group by their ``index`` (the first
brings id, type and name; later ones an ``arguments`` piece), and the
finish_reason is the last one sent. The result looks exactly like the
non-streamed response would parse: same blocks, ``raw_arguments`` = the joined
argument text, ``content_form`` "string" when any content delta was non-null
(else "null"), same stop reason, usage, id and model.

A call cut off by ``finish_reason: length`` keeps the arguments text as
streamed and, as its value, what the SDKs read of that prefix
(``toolwire.harness.dialects.partial_json``).

Tolerated quirks of real compatible servers (WIRE.md 1.1): a repeated
``id:""`` or the same id on later fragments, a trailing empty-arguments
fragment, ``usage: null`` on every chunk, a final chunk with empty
``choices`` and the usage, a first chunk with empty ``choices`` and an empty
id (Azure's ``prompt_filter_results``), no ``finish_reason`` key on the
chunks before the last (xAI, DashScope). Indices not starting at 0 are
reassembled but noted (``index_not_dense``). Problems are reported as
``StreamIssue`` s, never raised (codes: ``invalid_json``, ``invalid_chunk``,
``stream_error``, ``index_collision``, ``fragment_without_start``,
``index_not_dense`` (a new call at an index other than the next free one),
``id_changed`` (a chunk id other than the stream's first non-empty one),
``fragment_without_index``, ``name_conflict``, ``arguments_not_string``,
``missing_done``, ``after_done``, ``empty_stream``).

``Response.extra`` keeps the chunks' top-level metadata (``created``,
``system_fingerprint``, ``service_tier``, vendor fields; first non-null value
wins) but not ``object`` (always ``chat.completion.chunk``) nor the random
per-chunk ``obfuscation`` padding: ``render_stream`` uses it to stamp chunks.

This module reads the chunks and reports their issues; ``stream_state.py``
holds what each choice has accumulated and builds its ``Choice``.

Reference: https://platform.openai.com/docs/api-reference/chat-streaming
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.dialects.openai_chat.common import int_or_none, parse_usage, type_name
from toolwire.harness.dialects.openai_chat.messages import REASONING_FIELDS
from toolwire.harness.dialects.openai_chat.stream_state import CallState, ChoiceState
from toolwire.harness.model import Response, SSEEvent, StreamIssue, StreamTranscript

_CHUNK_SKIPPED = frozenset(("id", "model", "choices", "usage", "object", "obfuscation"))


def _keep_first(target: dict[str, Any], key: str, value: Any) -> None:
    """Metadata repeated on every chunk: the first non-null value wins."""
    if target.get(key) is None:
        target[key] = value


class _Reassembler:
    def __init__(self) -> None:
        self.issues: list[StreamIssue] = []
        self.choices: dict[int, ChoiceState] = {}
        self.id: str | None = None
        self.model: str | None = None
        self.usage: dict[str, Any] | None = None
        self.extra: dict[str, Any] = {}
        self.done = False
        self.event_index = 0

    def issue(self, code: str, message: str, whole_stream: bool = False) -> None:
        where = None if whole_stream else self.event_index
        self.issues.append(StreamIssue(code, message, where))

    def feed(self, event: SSEEvent) -> None:
        data = event.data.strip()
        if self.done:
            self.issue("after_done", "an event arrived after data: [DONE]")
            return
        if data == "[DONE]":
            self.done = True
            return
        try:
            chunk = json_text.loads(data)
        except json.JSONDecodeError as exc:
            if event.event == "error":
                self.issue("stream_error", f"the stream carried an error: {data[:200]!r}")
            else:
                self.issue("invalid_json", f"event data is not JSON ({exc.msg}): {data[:80]!r}")
            return
        if not isinstance(chunk, dict):
            self.issue("invalid_chunk", f"event data is a JSON {type_name(chunk)}, not a chunk")
            return
        if event.event == "error" or ("error" in chunk and "choices" not in chunk):
            # e.g. Groq ends a stream whose tool call failed validation with
            # ``event: error`` and no [DONE].
            self.issue("stream_error", f"the stream carried an error: {_error_text(chunk)}")
            return
        self.feed_chunk(chunk)

    def feed_chunk(self, chunk: Mapping[str, Any]) -> None:
        chunk_id = chunk.get("id")
        if isinstance(chunk_id, str) and chunk_id:
            # An empty id (Azure's content-filter chunk sends one first) says nothing.
            if not self.id:
                self.id = chunk_id
            elif chunk_id != self.id:
                self.issue("id_changed", f"chunk id {chunk_id!r} differs from {self.id!r}")
        elif self.id is None and isinstance(chunk_id, str):
            self.id = chunk_id
        model = chunk.get("model")
        if isinstance(model, str) and (self.model is None or (model and not self.model)):
            self.model = model
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        extra = self.extra
        for key, value in chunk.items():
            # _keep_first, inlined: it runs for several keys of every chunk.
            if key not in _CHUNK_SKIPPED and extra.get(key) is None:
                extra[key] = value
        choices = chunk.get("choices")
        if choices is None:
            return
        if not isinstance(choices, list):
            self.issue("invalid_chunk", f"choices is a JSON {type_name(choices)}, not an array")
            return
        for entry in choices:
            if isinstance(entry, dict):
                self.feed_choice(entry)
            else:
                self.issue("invalid_chunk", f"a choice is a JSON {type_name(entry)}")

    def feed_choice(self, entry: Mapping[str, Any]) -> None:
        index = int_or_none(entry.get("index"))
        state = self.choices.get(index or 0)
        if state is None:  # not setdefault: a state per chunk would be built for nothing
            state = self.choices[index or 0] = ChoiceState(index or 0)
        if isinstance(entry.get("finish_reason"), str):
            state.finish_reason = entry["finish_reason"]
        for key, value in entry.items():
            if key not in ("index", "delta", "finish_reason"):
                _merge_choice_extra(state.choice_extra, key, value)
        delta = entry.get("delta")
        if isinstance(delta, dict):
            self.feed_delta(state, delta)
        elif delta is not None:
            self.issue("invalid_chunk", f"delta is a JSON {type_name(delta)}, not an object")

    def feed_delta(self, state: ChoiceState, delta: Mapping[str, Any]) -> None:
        for key, value in delta.items():
            if key == "role":
                if state.role is None and isinstance(value, str):
                    state.role = value
            elif key == "content":
                piece = self.text_piece(value, key)
                if piece is not None:
                    if state.content is None:
                        state.content = []
                    state.content.append(piece)
            elif key in REASONING_FIELDS:
                piece = self.text_piece(value, key)
                if piece is not None:
                    state.reasoning.setdefault(key, []).append(piece)
            elif key == "tool_calls":
                self.feed_tool_calls(state, value)
            elif key == "refusal" and isinstance(value, str):
                # Refusal text streams in pieces, like content.
                before = state.message_extra.get("refusal")
                state.message_extra["refusal"] = (before if isinstance(before, str) else "") + value
            else:
                _keep_first(state.message_extra, key, value)

    def text_piece(self, value: Any, what: str) -> str | None:
        """A text delta; null means "nothing this chunk"."""
        if isinstance(value, str):
            return value
        if value is not None:
            self.issue("invalid_chunk", f"a {what} delta is a JSON {type_name(value)}")
        return None

    def feed_tool_calls(self, state: ChoiceState, fragments: Any) -> None:
        if fragments is None:
            return
        if not isinstance(fragments, list):
            self.issue("invalid_chunk", f"delta.tool_calls is a JSON {type_name(fragments)}")
            return
        for position, fragment in enumerate(fragments):
            if isinstance(fragment, dict):
                self.feed_fragment(state, fragment, position)
            else:
                self.issue("invalid_chunk", f"a tool-call fragment is a JSON {type_name(fragment)}")

    def feed_fragment(self, state: ChoiceState, fragment: Mapping[str, Any], pos: int) -> None:
        index = int_or_none(fragment.get("index"))
        if index is None:
            self.issue("fragment_without_index", f"a tool-call fragment has no index (used {pos})")
            index = pos
        function = fragment.get("function")
        if not isinstance(function, dict):
            if function is not None:
                self.issue("invalid_chunk", f"a fragment's function is a {type_name(function)}")
            function = {}
        frag_id = fragment.get("id")
        new_id = frag_id if isinstance(frag_id, str) and frag_id else None
        name = function.get("name")
        call = state.current_call.get(index)
        if call is None:
            if index != len(state.current_call):
                # Clients place calls by index (openai-python's stream helper
                # subscripts its list of calls with it).
                self.issue(
                    "index_not_dense",
                    f"a new tool call starts at index {index}; the next free index is "
                    f"{len(state.current_call)}",
                )
            if new_id is None and not (isinstance(name, str) and name):
                self.issue(
                    "fragment_without_start",
                    f"tool call index {index} starts without an id or a name",
                )
            call = self.open_call(state, index)
        elif new_id is not None and call.id and new_id != call.id:
            self.issue(
                "index_collision",
                f"tool call index {index} already holds id {call.id!r}, "
                f"then a fragment brought id {new_id!r}: two calls share one index",
            )
            call = self.open_call(state, index)
        if new_id is not None and not call.id:
            call.id = new_id
        elif isinstance(frag_id, str) and call.id is None:
            call.id = frag_id
        if isinstance(name, str) and name and call.name and name != call.name:
            self.issue(
                "name_conflict", f"tool call index {index}: name {call.name!r}, then {name!r}"
            )
        elif isinstance(name, str) and not call.name:
            call.name = name
        self.add_arguments(call, function)
        for key, value in fragment.items():
            if key not in ("index", "id", "function"):
                _keep_first(call.extra, key, value)
        for key, value in function.items():
            if key not in ("name", "arguments"):
                _keep_first(call.function_extra, key, value)

    def open_call(self, state: ChoiceState, index: int) -> CallState:
        call = CallState(index)
        state.calls.append(call)
        state.current_call[index] = call
        return call

    def add_arguments(self, call: CallState, function: Mapping[str, Any]) -> None:
        value = function.get("arguments")
        if value is None:
            return
        if not isinstance(value, str):
            self.issue("arguments_not_string", f"an arguments fragment is a {type_name(value)}")
            value = json.dumps(value, ensure_ascii=False)
        if call.arguments is None:
            call.arguments = []
        call.arguments.append(value)

    def finish(self, dialect: str) -> Response:
        if not self.done:
            self.issue("missing_done", "the stream ended without data: [DONE]", True)
        if not self.choices:
            self.issue("empty_stream", "no chunk carried a choice", True)
        return Response(
            dialect=dialect,
            choices=tuple(self.choices[i].to_choice() for i in sorted(self.choices)),
            id=self.id,
            model=self.model,
            usage=parse_usage(self.usage) if self.usage is not None else None,
            extra=dict(self.extra),
        )


def _merge_choice_extra(target: dict[str, Any], key: str, value: Any) -> None:
    # Streamed logprobs arrive per chunk: their token lists concatenate.
    before = target.get(key)
    if key == "logprobs" and isinstance(before, dict) and isinstance(value, dict):
        merged = dict(before)
        for name, items in value.items():
            old = merged.get(name)
            merged[name] = (
                old + items if isinstance(old, list) and isinstance(items, list) else items
            )
        target[key] = merged
    else:
        _keep_first(target, key, value)


def _error_text(chunk: Mapping[str, Any]) -> str:
    error = chunk.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])[:200]
    return json.dumps(chunk, ensure_ascii=False)[:200]


def parse_stream(events: Sequence[SSEEvent], dialect: str) -> StreamTranscript:
    reassembler = _Reassembler()
    for index, event in enumerate(events):
        reassembler.event_index = index
        reassembler.feed(event)
    response = reassembler.finish(dialect)
    return StreamTranscript(
        dialect=dialect,
        events=tuple(events),
        response=response,
        issues=tuple(reassembler.issues),
    )
