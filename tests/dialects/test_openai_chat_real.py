"""The openai-chat / deepseek-chat codecs against real API recordings.

Every request was accepted by the real API and every 200 response came from
it, so each must parse and render back to the same JSON. Each stream must
reassemble; when the next interaction of the same cassette replays the
assistant turn, its tool calls (and DeepSeek's reasoning) must be the ones
reassembled. Skips when ``../shared/real-transcripts`` is absent.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from tests.dialects.test_openai_chat_render_stream import canonical
from tests.support.real_transcripts import RealTranscript, load_real_transcripts
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.openai_chat.render_stream import render_stream
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Conversation, Response, ThinkingBlock
from toolwire.harness.sse import parse_sse

DIALECTS = ("openai-chat", "deepseek-chat")


def _ours() -> list[RealTranscript]:
    try:
        transcripts = load_real_transcripts()
    except pytest.skip.Exception:
        return []  # parametrized tests then skip as an empty set
    return [t for t in transcripts if t.dialect in DIALECTS]


TRANSCRIPTS = _ours()
BY_NAME = {t.name: t for t in TRANSCRIPTS}


def _select(kind: str | None = None, status: int | None = None) -> list[Any]:
    chosen = [
        t
        for t in TRANSCRIPTS
        if (kind is None or t.kind == kind) and (status is None or t.status_code == status)
    ]
    return [pytest.param(t, id=t.name) for t in chosen]


def _next_of(transcript: RealTranscript) -> RealTranscript | None:
    match = re.fullmatch(r"(.*)__(\d{3})", transcript.name)
    assert match, f"unexpected transcript name {transcript.name}"
    return BY_NAME.get(f"{match.group(1)}__{int(match.group(2)) + 1:03d}")


def test_real_transcripts_are_available() -> None:
    load_real_transcripts()  # skips with the folder's path when absent
    assert {t.kind for t in TRANSCRIPTS} == {"response", "stream"}
    assert {t.dialect for t in TRANSCRIPTS} == set(DIALECTS)


@pytest.mark.parametrize("transcript", _select())
def test_request_round_trips(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    original = copy.deepcopy(transcript.request_body)
    conversation = codec.parse_request(transcript.request_body)
    assert conversation.dialect == transcript.dialect
    assert codec.render_request(conversation) == original


@pytest.mark.parametrize("transcript", _select("response", 200))
def test_response_round_trips(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    original = copy.deepcopy(transcript.response_body)
    response = codec.parse_response(transcript.response_body)
    assert response.choices, "a 200 completion has at least one choice"
    assert codec.render_response(response) == original


@pytest.mark.parametrize(
    "transcript",
    [pytest.param(t, id=t.name) for t in TRANSCRIPTS if t.status_code != 200],
)
def test_error_responses_are_refused_clearly(transcript: RealTranscript) -> None:
    with pytest.raises(WireFormatError, match="API error body"):
        get_codec(transcript.dialect).parse_response(transcript.response_body)


def _stream(transcript: RealTranscript) -> Any:
    return get_codec(transcript.dialect).parse_stream(parse_sse(transcript.sse_text()))


def _expected_issues(transcript: RealTranscript) -> set[str]:
    """Issues the recording itself justifies: an error event, no [DONE]."""
    assert transcript.sse_events is not None
    expected = set()
    if any(e.get("event") == "error" for e in transcript.sse_events):
        expected.add("stream_error")
    if not any(e["data"] == "[DONE]" for e in transcript.sse_events):
        expected.add("missing_done")
    return expected


@pytest.mark.parametrize("transcript", _select("stream"))
def test_stream_reassembles(transcript: RealTranscript) -> None:
    result = _stream(transcript)
    assert {i.code for i in result.issues} == _expected_issues(transcript)
    assert len(result.events) == len(transcript.sse_events or [])
    response = result.response
    assert response.dialect == transcript.dialect
    if "stream_error" not in _expected_issues(transcript):
        assert response.id and response.model
        for call in response.message.tool_calls:
            assert call.id and call.name
            assert call.arguments_error is None, call.raw_arguments


def _assistant_parts(conversation: Conversation) -> tuple[list[Any], list[Any]]:
    """(tool calls, reasoning texts) of every assistant turn, in order."""
    calls: list[Any] = []
    reasoning: list[str | None] = []
    for turn in conversation.turns:
        if turn.role != "assistant":
            continue
        calls.extend((c.id, c.name, c.arguments) for c in turn.tool_calls)
        reasoning.extend(b.text for b in turn.blocks if isinstance(b, ThinkingBlock))
    return calls, reasoning


def _replayed_pairs() -> list[Any]:
    pairs = []
    for transcript in TRANSCRIPTS:
        following = _next_of(transcript)
        if following is None or transcript.status_code != 200:
            continue
        if transcript.kind == "stream" and _expected_issues(transcript):
            continue  # an interrupted stream has no assistant turn to replay
        pairs.append(pytest.param(transcript, following, id=transcript.name))
    return pairs


@pytest.mark.parametrize(("transcript", "following"), _replayed_pairs())
def test_next_request_replays_what_was_reassembled(
    transcript: RealTranscript, following: RealTranscript
) -> None:
    codec = get_codec(transcript.dialect)
    response: Response = (
        _stream(transcript).response
        if transcript.kind == "stream"
        else codec.parse_response(transcript.response_body)
    )
    produced = [(c.id, c.name, c.arguments) for c in response.message.tool_calls]
    replayed, replayed_reasoning = _assistant_parts(codec.parse_request(following.request_body))
    by_id = {call[0]: call for call in replayed}
    # The client may add calls of its own, but every call the model made comes
    # back with the same id, name and (parsed) arguments, in the same order.
    assert [by_id.get(call[0]) for call in produced] == produced
    positions = [replayed.index(call) for call in produced]
    assert positions == sorted(positions)
    if transcript.dialect == "deepseek-chat":
        # DeepSeek thinking mode: the reasoning is sent back unchanged.
        for block in response.message.blocks:
            if isinstance(block, ThinkingBlock):
                assert block.text in replayed_reasoning


@pytest.mark.parametrize("transcript", _select("stream") + _select("response", 200))
def test_render_stream_carries_the_same_canonical_content(transcript: RealTranscript) -> None:
    codec = get_codec(transcript.dialect)
    if transcript.kind == "stream":
        source = _stream(transcript)
        if source.issues:
            pytest.skip("the recorded stream itself was interrupted")
        response = source.response
    else:
        response = codec.parse_response(transcript.response_body)
    for events in (codec.render_stream(response), render_stream(response, fragment_size=4)):
        again = codec.parse_stream(events)
        assert again.issues == ()
        assert canonical(again.response) == canonical(response)
