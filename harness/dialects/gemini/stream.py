"""Reassemble ``:streamGenerateContent?alt=sse`` into the response it carries,
and write a response as such a stream.

Each SSE ``data:`` is a whole ``GenerateContentResponse`` holding the next
piece of each candidate (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent;
https://ai.google.dev/gemini-api/docs/text-generation#streaming). Reassembly,
per candidate ``index``:

* a text part continues the previous part when that one is text of the same
  kind (thought or not) without a ``thoughtSignature``: texts are joined; a
  part that brings a ``thoughtSignature`` (often with empty text, in the last
  chunk: https://ai.google.dev/gemini-api/docs/thought-signatures) gives it to
  the part it continues;
* ``functionCall`` parts come whole, one part each, and are appended;
  Vertex AI's streamed arguments (a call over many parts, ``willContinue``
  and ``partialArgs``) are put back into one whole part first
  (``partial_args.py``);
* ``finishReason`` comes on the last chunk; ``usageMetadata``,
  ``modelVersion`` and ``responseId`` are repeated and the last one is kept.

The result is parsed by ``parse_response``, so both paths give the same
``Response``. Grammar problems become ``StreamIssue`` s (``ISSUE_CODES``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.dialects.gemini.partial_args import (
    PartialArgError,
    StreamedCall,
    continues,
    opens_stream,
)
from toolwire.harness.dialects.gemini.parts import SIGNATURE
from toolwire.harness.dialects.gemini.response import (
    parse_response,
    render_candidate,
    render_response,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    GEMINI,
    Choice,
    Response,
    SSEEvent,
    StopReason,
    StreamIssue,
    StreamTranscript,
    Turn,
)

ISSUE_CODES = (
    "invalid_json",  # an event's data is not JSON
    "invalid_chunk",  # JSON, but not a GenerateContentResponse shape
    "error_chunk",  # the stream carried an error object
    "after_finish",  # content for a candidate after its finishReason
    "missing_finish_reason",  # the stream ended without a finishReason
    "response_id_changed",  # chunks of one stream name different responseIds
    "empty_stream",  # no chunk at all
    "unfinished_call",  # a streamed call (willContinue) that no part closed
)


class _Reassembler:
    def __init__(self) -> None:
        self.issues: list[StreamIssue] = []
        self.top: dict[str, Any] = {}
        self.candidates: dict[int, dict[str, Any]] = {}
        self.finished: set[int] = set()
        self.chunks = 0
        self.first_id: Any = None
        # Per candidate: the streamed call being put together, and where it goes.
        self.streaming: dict[int, tuple[StreamedCall, list[Any], int]] = {}

    def note(self, code: str, message: str, position: int | None) -> None:
        self.issues.append(StreamIssue(code=code, message=message, event_index=position))

    def feed(self, position: int, event: SSEEvent) -> None:
        try:
            chunk = json_text.loads(event.data)
        except ValueError as exc:
            self.note("invalid_json", f"event data is not JSON: {exc}", position)
            return
        if not isinstance(chunk, Mapping):
            self.note("invalid_chunk", "event data is not a JSON object", position)
            return
        if "error" in chunk and "candidates" not in chunk:
            self.note("error_chunk", f"the stream carried an error: {chunk['error']}", position)
            return
        self.chunks += 1
        response_id = chunk.get("responseId")
        previous = self.first_id
        if self.first_id is None:
            self.first_id = response_id
        elif response_id is not None and response_id != previous:
            self.note(
                "response_id_changed",
                f"chunk names responseId {response_id!r}, earlier chunks {previous!r}",
                position,
            )
        for key, value in chunk.items():
            if key != "candidates":
                self.top[key] = value
        candidates = chunk.get("candidates", [])
        if not isinstance(candidates, list):
            self.note("invalid_chunk", "`candidates` is not an array", position)
            return
        for slot, candidate in enumerate(candidates):
            if not isinstance(candidate, Mapping):
                self.note("invalid_chunk", "a candidate is not an object", position)
                continue
            self.feed_candidate(position, slot, candidate)

    def feed_candidate(self, position: int, slot: int, candidate: Mapping[str, Any]) -> None:
        index = candidate.get("index", slot)
        if not isinstance(index, int):
            self.note("invalid_chunk", "a candidate `index` is not an integer", position)
            return
        state = self.candidates.setdefault(index, {})
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, Mapping) else None
        if index in self.finished and parts:
            self.note(
                "after_finish",
                f"candidate {index} sends content after its finishReason",
                position,
            )
        for key, value in candidate.items():
            if key == "content" and not isinstance(value, Mapping):
                self.note("invalid_chunk", f"candidate {index}: `content` is no object", position)
            elif key == "content":
                merged = state.setdefault("content", {})
                for inner, item in value.items():
                    if inner != "parts":
                        merged[inner] = item
                if isinstance(parts, list):
                    merged.setdefault("parts", [])
                    for part in parts:
                        self.add_part(index, merged["parts"], part, position)
            else:
                state[key] = value
        if candidate.get("finishReason") is not None:
            self.finished.add(index)

    def add_part(self, index: int, parts: list[Any], part: Any, position: int) -> None:
        """One part of candidate ``index``: joined, appended, or given to a streamed call."""
        call = part.get("functionCall") if isinstance(part, Mapping) else None
        open_call = self.streaming.get(index)
        if open_call is not None and isinstance(call, Mapping) and continues(call):
            self._continue(index, part, position)
            return
        if open_call is not None:
            self._close(index)
        if isinstance(call, Mapping) and opens_stream(call) and "name" in call:
            try:
                streamed = StreamedCall.start(part)
            except PartialArgError as error:
                self.note("invalid_chunk", f"a streamed functionCall: {error}", position)
                _add_part(parts, part)
                return
            self.streaming[index] = (streamed, parts, len(parts))
            parts.append(streamed.whole_part())
            return
        _add_part(parts, part)

    def _continue(self, index: int, part: Any, position: int) -> None:
        streamed, parts, slot = self.streaming[index]
        try:
            streamed.add(part)
        except PartialArgError as error:
            self.note("invalid_chunk", f"a streamed functionCall: {error}", position)
        parts[slot] = streamed.whole_part()

    def _close(self, index: int) -> None:
        streamed, parts, slot = self.streaming.pop(index)
        parts[slot] = streamed.whole_part()
        if not streamed.done:
            name = streamed.part["functionCall"].get("name")
            self.note(
                "unfinished_call",
                f"candidate {index}: the streamed call to {name!r} never ended "
                "(no part of it without willContinue: true)",
                None,
            )

    def finish(self, count: int) -> dict[str, Any]:
        for index in list(self.streaming):
            self._close(index)
        if self.chunks == 0:
            self.note("empty_stream", "the stream carried no chunk", None)
        elif len(self.finished) < len(self.candidates) or not self.candidates:
            self.note("missing_finish_reason", "the stream ended without a finishReason", None)
        body = dict(self.top)
        body["candidates"] = [
            {**state, "index": state.get("index", index)} if index else state
            for index, state in sorted(self.candidates.items())
        ]
        return body


def _add_part(parts: list[Any], part: Any) -> None:
    last = parts[-1] if parts else None
    if (
        isinstance(part, Mapping)
        and isinstance(last, dict)
        and isinstance(part.get("text"), str)
        and isinstance(last.get("text"), str)
        and bool(part.get("thought")) == bool(last.get("thought"))
        and SIGNATURE not in last
        and set(part) <= {"text", "thought", SIGNATURE}
    ):
        last["text"] += part["text"]
        if SIGNATURE in part:
            last[SIGNATURE] = part[SIGNATURE]
        return
    parts.append(dict(part) if isinstance(part, Mapping) else part)


def parse_stream(events: Sequence[SSEEvent]) -> StreamTranscript:
    reassembler = _Reassembler()
    for position, event in enumerate(events):
        reassembler.feed(position, event)
    body = reassembler.finish(len(events))
    try:
        response = parse_response(body)
    except WireFormatError as error:
        reassembler.note("invalid_chunk", f"the reassembled response is malformed: {error}", None)
        # Nothing readable: an empty answer, so rules see one (empty) message.
        empty = Turn(role="assistant", blocks=(), content_form="absent")
        response = Response(
            dialect=GEMINI, choices=(Choice(0, empty, StopReason(None, "unknown")),)
        )
    return StreamTranscript(
        dialect=GEMINI, events=tuple(events), response=response, issues=tuple(reassembler.issues)
    )


def render_stream(response: Response) -> tuple[SSEEvent, ...]:
    """One chunk per part of each candidate, ``finishReason`` on the last one;
    ``usageMetadata``, ``modelVersion`` and ``responseId`` on every chunk (as
    Gemini sends them)."""
    final = render_response(response)
    envelope = {k: v for k, v in final.items() if k != "candidates"}
    chunks: list[dict[str, Any]] = []
    for choice in response.choices:
        rendered = render_candidate(choice)
        content = rendered.get("content")
        parts = content.get("parts", []) if isinstance(content, dict) else []
        head = {k: v for k, v in rendered.items() if k not in ("content", "finishReason")}
        if "index" not in head:
            head["index"] = choice.index
        pieces: list[list[Any] | None] = [[part] for part in parts] or [None]
        for number, piece in enumerate(pieces):
            candidate: dict[str, Any] = {}
            if piece is not None and isinstance(content, dict):
                candidate["content"] = {**content, "parts": piece}
            candidate.update(head)
            if number == len(pieces) - 1 and "finishReason" in rendered:
                candidate["finishReason"] = rendered["finishReason"]
            chunks.append({"candidates": [candidate], **envelope})
    if not chunks:
        chunks.append(dict(final))
    return tuple(
        SSEEvent(data=json.dumps(c, ensure_ascii=False, separators=(",", ":"))) for c in chunks
    )


__all__ = ["ISSUE_CODES", "Choice", "parse_stream", "render_stream"]
