"""The anthropic-messages codec against real API recordings.

Every request in ``shared/real-transcripts`` was accepted by Anthropic, every
response and stream was sent by it: the codec must read them all, render them
back unchanged, reassemble every stream without a grammar issue, and agree
with the client that replayed the assistant turn in the next request.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.real_transcripts import RealTranscript, load_real_transcripts
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.anthropic_messages.blocks import render_block
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    Block,
    OpaqueBlock,
    Response,
    ThinkingBlock,
    ToolCall,
)
from toolwire.harness.sse import parse_sse

CODEC = get_codec(ANTHROPIC_MESSAGES)


def _load() -> tuple[list[RealTranscript], str | None]:
    try:
        every = load_real_transcripts()
    except pytest.skip.Exception as skip:  # folder absent: skip, don't error at collection
        return [], str(skip)
    return [t for t in every if t.dialect == ANTHROPIC_MESSAGES], None


TRANSCRIPTS, SKIP_REASON = _load()
BY_NAME = {t.name: t for t in TRANSCRIPTS}


def _params(kinds: tuple[str, ...]) -> list[Any]:
    if SKIP_REASON is not None:
        return [pytest.param(None, marks=pytest.mark.skip(reason=SKIP_REASON), id="absent")]
    return [pytest.param(t, id=t.name) for t in TRANSCRIPTS if t.kind in kinds]


def _next_interaction(transcript: RealTranscript) -> RealTranscript | None:
    stem, _, number = transcript.name.rpartition("__")
    return BY_NAME.get(f"{stem}__{int(number) + 1:03d}")


def _replayed_turn(transcript: RealTranscript) -> dict[str, Any] | None:
    """The assistant message the next request of the cassette appended right
    after this request's messages, if the cassette continues this exchange."""
    following = _next_interaction(transcript)
    if following is None:
        return None
    sent = transcript.request_body["messages"]
    then = following.request_body["messages"]
    if len(then) <= len(sent) or then[: len(sent)] != sent:
        return None
    candidate: dict[str, Any] = then[len(sent)]
    return candidate if candidate.get("role") == "assistant" else None


def _replay_params(kind: str) -> list[Any]:
    if SKIP_REASON is not None:
        return _params((kind,))
    return [
        pytest.param(t, id=t.name)
        for t in TRANSCRIPTS
        if t.kind == kind and t.status_code == 200 and _replayed_turn(t) is not None
    ]


def _reassemble(transcript: RealTranscript) -> Response:
    stream = CODEC.parse_stream(parse_sse(transcript.sse_text()))
    assert stream.issues == ()
    return stream.response


def _calls_and_thinking(blocks: tuple[Block, ...]) -> list[tuple[Any, ...]]:
    """What a client must replay unchanged: calls and reasoning, in order."""
    kept: list[tuple[Any, ...]] = []
    for block in blocks:
        if isinstance(block, ToolCall):
            kept.append(("call", block.id, block.name, block.arguments))
        elif isinstance(block, ThinkingBlock):
            kept.append(
                ("thinking", block.origin, block.text, block.signature, block.redacted_data)
            )
    return kept


def test_the_recordings_cover_every_kind() -> None:
    if SKIP_REASON is not None:
        pytest.skip(SKIP_REASON)
    kinds = {t.kind for t in TRANSCRIPTS}
    assert kinds == {"response", "stream"}
    assert len(_replay_params("stream")) >= 3


@pytest.mark.parametrize("transcript", _params(("response", "stream")))
def test_request_round_trips(transcript: RealTranscript) -> None:
    conversation = CODEC.parse_request(transcript.request_body)
    assert conversation.dialect == ANTHROPIC_MESSAGES
    assert len(conversation.turns) == len(transcript.request_body["messages"])
    assert CODEC.render_request(conversation) == transcript.request_body


@pytest.mark.parametrize("transcript", _params(("response",)))
def test_response_round_trips(transcript: RealTranscript) -> None:
    if transcript.status_code != 200:
        pytest.skip("error responses are not messages")
    response = CODEC.parse_response(transcript.response_body)
    body = transcript.response_body
    assert response.id == body["id"]
    assert response.stop_reason.raw == body["stop_reason"]
    assert response.stop_reason.canonical != "unknown"
    assert response.usage is not None
    assert response.usage.output_tokens == body["usage"]["output_tokens"]
    assert len(response.message.blocks) == len(body["content"])
    assert CODEC.render_response(response) == body


@pytest.mark.parametrize("transcript", _params(("stream",)))
def test_stream_reassembles_without_issues(transcript: RealTranscript) -> None:
    response = _reassemble(transcript)
    events = [e["data"] for e in transcript.sse_events or []]
    last_delta = next(e for e in reversed(events) if e["type"] == "message_delta")
    starts = [e for e in events if e["type"] == "content_block_start"]
    assert response.stop_reason.raw == last_delta["delta"]["stop_reason"]
    assert response.usage is not None
    assert response.usage.output_tokens == last_delta["usage"]["output_tokens"]
    assert [_wire_type(b) for b in response.message.blocks] == [
        s["content_block"]["type"] for s in starts
    ]


def _wire_type(block: Block) -> str:
    return str(render_block(block)["type"])


@pytest.mark.parametrize("transcript", _params(("stream",)))
def test_rendered_stream_matches_the_real_one(transcript: RealTranscript) -> None:
    """render_stream writes what Anthropic wrote, up to how text is chunked."""
    response = _reassemble(transcript)
    ours = [json.loads(e.data) for e in CODEC.render_stream(response)]
    real = [e["data"] for e in transcript.sse_events or []]

    def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] == kind]

    for kind in ("content_block_start", "content_block_stop", "message_delta", "message_stop"):
        assert of_type(ours, kind) == of_type(real, kind), kind
    ours_start = of_type(ours, "message_start")[0]["message"]
    real_start = of_type(real, "message_start")[0]["message"]
    assert {k: v for k, v in ours_start.items() if k != "usage"} == {
        k: v for k, v in real_start.items() if k != "usage"
    }
    assert set(ours_start["usage"]) >= set(real_start["usage"])
    again = CODEC.parse_stream(CODEC.render_stream(response))
    assert again.issues == ()
    assert again.response == response


@pytest.mark.parametrize("transcript", _replay_params("stream"))
def test_streamed_turn_equals_its_replay(transcript: RealTranscript) -> None:
    response = _reassemble(transcript)
    replayed = CODEC.parse_request({"messages": [_replayed_turn(transcript)]}).turns[0]
    expected = _calls_and_thinking(replayed.blocks)
    assert expected, "a replay worth checking carries calls or thinking"
    assert _calls_and_thinking(response.message.blocks) == expected


@pytest.mark.parametrize("transcript", _replay_params("response"))
def test_response_turn_equals_its_replay(transcript: RealTranscript) -> None:
    response = CODEC.parse_response(transcript.response_body)
    replayed = CODEC.parse_request({"messages": [_replayed_turn(transcript)]}).turns[0]
    assert _calls_and_thinking(response.message.blocks) == _calls_and_thinking(replayed.blocks)
    opaque = [b.raw for b in response.message.blocks if isinstance(b, OpaqueBlock)]
    assert opaque == [b.raw for b in replayed.blocks if isinstance(b, OpaqueBlock)]
