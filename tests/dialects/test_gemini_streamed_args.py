"""Vertex AI's streamed function-call arguments read as one call.

The chunks follow the shape of the Vertex AI reference (FunctionCall,
PartialArg) and of the real recording in ../shared
(vercel-ai google-stream-tool-call-array-arguments-...): a first part with the
name and ``willContinue``, pieces with ``partialArgs`` and no name, a string
streamed over two pieces of one path, and (here) the closing empty call.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.real_transcripts import load_real_transcripts
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.gemini.partial_args import PartialArgError, parse_json_path
from toolwire.harness.model import SSEEvent, ToolCall
from toolwire.harness.schemas import validate_payload
from toolwire.harness.sse import parse_sse

CODEC = get_codec("gemini")


def _chunk(*parts: dict[str, Any], finish: bool = False) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish:
        candidate["finishReason"] = "STOP"
    return {"candidates": [candidate], "responseId": "r1", "modelVersion": "gemini-3-pro"}


def _piece(*args: dict[str, Any], more: bool = True) -> dict[str, Any]:
    call: dict[str, Any] = {"partialArgs": list(args)}
    if more:
        call["willContinue"] = True
    return _chunk({"functionCall": call})


STREAM = [
    _chunk(
        {"functionCall": {"name": "write_items", "willContinue": True}, "thoughtSignature": "c2ln"}
    ),
    _piece({"jsonPath": "$.items[0].name", "stringValue": "red ", "willContinue": True}),
    _piece({"jsonPath": "$.items[0].name", "stringValue": "apple"}),
    _piece({"jsonPath": "$.items[0].price", "numberValue": 0.5}),
    _piece({"jsonPath": "$['items'][1].fresh", "boolValue": False}),
    _piece({"jsonPath": "$.note", "nullValue": "NULL_VALUE"}),
    _chunk({"functionCall": {}}),
    _chunk({"text": ""}, finish=True),
]


def _events(chunks: list[dict[str, Any]]) -> tuple[SSEEvent, ...]:
    return tuple(SSEEvent(data=json.dumps(chunk)) for chunk in chunks)


def _calls(chunks: list[dict[str, Any]]) -> tuple[list[ToolCall], Any]:
    transcript = CODEC.parse_stream(_events(chunks))
    blocks = transcript.response.choices[0].message.blocks
    return [b for b in blocks if isinstance(b, ToolCall)], transcript.issues


def test_the_pieces_of_a_streamed_call_are_one_call() -> None:
    calls, issues = _calls(STREAM)
    assert issues == ()
    (call,) = calls
    assert call.name == "write_items"
    assert call.signature == "c2ln"
    assert call.arguments == {
        "items": [{"name": "red apple", "price": 0.5}, {"fresh": False}],
        "note": None,
    }


def test_a_call_closed_by_its_last_piece_needs_no_empty_call() -> None:
    chunks = [*STREAM[:5], _piece({"jsonPath": "$.note", "stringValue": "x"}, more=False)]
    calls, issues = _calls([*chunks, _chunk({"text": ""}, finish=True)])
    assert [c.arguments["note"] for c in calls] == ["x"]
    assert issues == ()


def test_whole_calls_after_a_streamed_one_stay_apart() -> None:
    whole = {"functionCall": {"name": "ping", "args": {"n": 1}}}
    calls, _ = _calls([*STREAM[:-1], _chunk(whole, finish=True)])
    assert [c.name for c in calls] == ["write_items", "ping"]
    assert calls[1].arguments == {"n": 1}


def test_a_streamed_call_that_never_ends_is_an_issue() -> None:
    _, issues = _calls([*STREAM[:3], _chunk({"text": "done"}, finish=True)])
    assert [i.code for i in issues] == ["unfinished_call"]  # cut off by a text part
    _, issues = _calls(STREAM[:3])
    assert "unfinished_call" in [i.code for i in issues]  # cut off by the end


def test_a_piece_with_a_path_that_is_no_path_is_an_issue_not_a_crash() -> None:
    bad = _piece({"jsonPath": "items[0]", "stringValue": "x"})
    _, issues = _calls([STREAM[0], bad, *STREAM[6:]])
    assert [i.code for i in issues] == ["invalid_chunk"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("$.a", ("a",)), ("$.a[2].b", ("a", 2, "b")), ("$['x y'][0]", ("x y", 0))],
)
def test_json_paths(text: str, expected: tuple[Any, ...]) -> None:
    assert parse_json_path(text) == expected


@pytest.mark.parametrize("text", ["a.b", "$", "$.a[x]", "$..a"])
def test_json_paths_that_are_not_read(text: str) -> None:
    with pytest.raises(PartialArgError):
        parse_json_path(text)


def test_the_pieces_fit_the_stream_chunk_schema_and_a_nameless_whole_call_does_not() -> None:
    assert all(validate_payload("gemini", "stream", chunk) == [] for chunk in STREAM)
    nameless = _chunk({"functionCall": {"args": {"a": 1}}})
    assert [v.path for v in validate_payload("gemini", "stream", nameless)] == [
        "candidates[0].content.parts[0].functionCall.name"
    ]


def test_the_real_vertex_recording_is_one_call() -> None:
    found = [
        t
        for t in load_real_transcripts(("real-transcripts-responses-gemini",))
        if "missing-terminal-function-call" in t.name
    ]
    if not found:
        pytest.skip("the Vertex AI streamed-arguments recording is not in ../shared")
    transcript = CODEC.parse_stream(parse_sse(found[0].sse_text()))
    calls = [b for b in transcript.response.choices[0].message.blocks if isinstance(b, ToolCall)]
    assert transcript.issues == ()
    assert [c.name for c in calls] == ["writeItems"]
    assert [op["itemid"] for op in calls[0].arguments["operations"]] == ["apple_001", "banana_001"]
