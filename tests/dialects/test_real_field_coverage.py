"""Every field and event type the real Responses and Gemini recordings use
is read by the codec, or listed here as left alone on purpose, with why.

A new field in a recording fails this test until it is read or listed: the
codecs were written from the documentation, and the recordings are what the
APIs really send (../shared/real-transcripts-responses-gemini)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.real_transcripts import RealTranscript, load_real_transcripts
from toolwire.harness.dialects.gemini import parts as gemini_parts
from toolwire.harness.dialects.gemini import request as gemini_request
from toolwire.harness.dialects.gemini import response as gemini_response
from toolwire.harness.dialects.gemini.field_names import camel_case
from toolwire.harness.dialects.gemini.partial_args import CONTINUES, PARTIAL
from toolwire.harness.dialects.openai_responses import stream as responses_stream
from toolwire.harness.dialects.openai_responses.items import is_model_side

# What each codec reads, from its own tables.
READ: dict[str, frozenset[str]] = {
    "gemini request": gemini_request._NAMED | gemini_request._RENAMED | {"model"},
    "gemini response": gemini_response._NAMED,
    "gemini candidate": gemini_response._CANDIDATE_NAMED | {"index"},  # index: stream.py
    "gemini part": gemini_parts._THOUGHT_NAMED
    | gemini_parts._CALL_PART_NAMED
    | gemini_parts._RESPONSE_PART_NAMED
    | frozenset(gemini_parts._DATA_FIELDS),
    "gemini functionCall": gemini_parts._CALL_NAMED | {PARTIAL, CONTINUES},
    "responses event": frozenset(responses_stream._HANDLERS),
    # Items the codec reads by type; others are judged by is_model_side below.
    "responses item": frozenset(("message", "function_call", "reasoning", "function_call_output")),
}

# Seen in the recordings and left alone on purpose (kept as they came, in
# ``extra`` or as an opaque block, and written back unchanged).
IGNORED: dict[str, dict[str, str]] = {
    "gemini response": {
        "createTime": "Vertex AI's timestamp of the response: metadata, kept in extra",
    },
    "gemini candidate": {
        "finishMessage": "prose about finishReason ('Model generated function call(s).'), "
        "which is read; kept in extra",
        "avgLogprobs": "a score of the candidate's tokens: nothing a tool call depends on",
    },
    "responses event": {
        "response.in_progress": "repeats response.created's Response with status "
        "in_progress; the terminal event carries the final one",
    },
    "responses item": {
        "additional_tools": "a developer item that loads tools mid-conversation "
        "(pydantic-ai's capabilities): the client's own turn, kept whole as an item",
        "tool_search_output/client": "the client's answer to a client-run tool search: "
        "its own turn, like a function_call_output (harness/dialects/openai_responses/items.py)",
    },
}


def _bodies(transcript: RealTranscript) -> Iterator[tuple[str, Any]]:
    """(side, body) of every JSON body of a recording."""
    if transcript.request_body is not None:
        yield "request", transcript.request_body
    if isinstance(transcript.response_body, dict):
        yield "response", transcript.response_body
    for event in transcript.sse_events or []:
        if isinstance(event["data"], dict):
            yield "event", event["data"]


def _gemini_fields(side: str, body: dict[str, Any], seen: dict[str, set[str]]) -> None:
    if side == "request":
        seen["gemini request"].update(camel_case(key) for key in body)
        contents = [*body.get("contents", []), body.get("systemInstruction") or {}]
    else:
        seen["gemini response"].update(body)
        candidates = body.get("candidates", [])
        for candidate in candidates:
            seen["gemini candidate"].update(candidate)
        contents = [c.get("content") or {} for c in candidates]
    for content in contents:
        for part in content.get("parts", []):
            seen["gemini part"].update(camel_case(key) for key in part)
            call = part.get("functionCall", part.get("function_call"))
            if isinstance(call, dict):
                seen["gemini functionCall"].update(camel_case(key) for key in call)


def _responses_item(item: dict[str, Any], seen: dict[str, set[str]]) -> None:
    kind = item.get("type", "message" if "role" in item else None)
    if not isinstance(kind, str) or is_model_side(kind, item):
        return  # model-side: read into the assistant turn
    if kind.endswith("_output") and "execution" in item:
        kind = f"{kind}/{item['execution']}"
    seen["responses item"].add(kind)


def _responses_fields(side: str, body: dict[str, Any], seen: dict[str, set[str]]) -> None:
    if side == "event":
        seen["responses event"].add(str(body.get("type")))
        if isinstance(body.get("item"), dict):
            _responses_item(body["item"], seen)
        return
    items = body.get("input") if side == "request" else body.get("output")
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            _responses_item(item, seen)


def _seen() -> dict[str, set[str]]:
    try:
        transcripts = load_real_transcripts(("real-transcripts-responses-gemini",))
    except pytest.skip.Exception:
        return {}
    seen: dict[str, set[str]] = defaultdict(set)
    for transcript in transcripts:
        for side, body in _bodies(transcript):
            if transcript.dialect == "gemini":
                _gemini_fields(side, body, seen)
            else:
                _responses_fields(side, body, seen)
    return seen


SEEN = _seen()


@pytest.mark.parametrize("where", sorted(READ))
def test_every_field_the_recordings_use_is_read_or_listed(where: str) -> None:
    if not SEEN:
        pytest.skip("real-transcripts-responses-gemini not found in ../shared")
    unread = SEEN[where] - READ[where] - set(IGNORED.get(where, {}))
    assert unread == set(), f"{where}: read these, or list them in IGNORED with a reason"


def test_every_ignored_field_is_still_in_the_recordings() -> None:
    """A list entry nothing uses any more is removed, not kept as a reason for nothing."""
    if not SEEN:
        pytest.skip("real-transcripts-responses-gemini not found in ../shared")
    stale = {(where, name) for where, names in IGNORED.items() for name in names}
    stale -= {(where, name) for where, names in SEEN.items() for name in names}
    assert stale == set()


def test_the_reading_covers_what_the_issue_named() -> None:
    """Streamed call pieces and the server's items are read, not ignored."""
    assert {PARTIAL, CONTINUES} <= READ["gemini functionCall"]
    assert "response.reasoning_text.delta" in READ["responses event"]
    assert is_model_side("tool_search_output", {"execution": "server"})
    assert not is_model_side("tool_search_output", {"execution": "client"})
