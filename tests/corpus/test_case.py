from __future__ import annotations

from pathlib import Path

import pytest

from toolwire.harness.corpus.case import Case, Interaction, Provenance
from toolwire.harness.errors import CorpusError
from toolwire.harness.model import SSEEvent


def _interaction(
    body: str = '{"ok": true}',
    content_type: str = "application/json",
    request_body: str | None = '{"messages": []}',
    status: int = 200,
) -> Interaction:
    return Interaction(
        method="POST",
        uri="https://api.openai.com/v1/chat/completions",
        request_headers={"Content-Type": ("application/json",)},
        request_body_text=request_body,
        status_code=status,
        response_headers={"content-type": (content_type,)},
        response_body_text=body,
        source="corpus/x.yaml",
        index=2,
    )


def test_json_helpers() -> None:
    interaction = _interaction()
    assert interaction.request_json() == {"messages": []}
    assert interaction.response_json() == {"ok": True}
    assert not interaction.is_stream()
    assert interaction.payload_kinds == ("request", "response")
    assert interaction.response_header("Content-Type") == "application/json"
    assert interaction.request_header("CONTENT-TYPE") == "application/json"
    assert interaction.response_header("X-Missing") is None


def test_stream_helpers() -> None:
    stream = 'event: message_start\ndata: {"type": "message_start"}\n\ndata: [DONE]\n\n'
    interaction = _interaction(stream, "text/event-stream; charset=utf-8")
    assert interaction.is_stream()
    assert interaction.payload_kinds == ("request", "stream")
    assert interaction.response_events() == (
        SSEEvent(data='{"type": "message_start"}', event="message_start"),
        SSEEvent(data="[DONE]"),
    )
    with pytest.raises(CorpusError) as caught:
        interaction.response_json()
    assert str(caught.value) == (
        "corpus/x.yaml: interaction 3 response body: is an event stream, not JSON "
        "(use response_events() for streams)"
    )


def test_events_of_a_json_response_refused() -> None:
    with pytest.raises(CorpusError, match="is not an event stream"):
        _interaction().response_events()


def test_invalid_json_names_the_interaction() -> None:
    with pytest.raises(CorpusError) as caught:
        _interaction(request_body='{"messages": [}').request_json()
    assert str(caught.value) == (
        "corpus/x.yaml: interaction 3 request body: is not valid JSON: Expecting value at line 1 "
        "column 15 (store the body exactly as sent on the wire)"
    )


def test_missing_request_body() -> None:
    with pytest.raises(CorpusError, match="interaction 3 request body: is empty"):
        _interaction(request_body=None).request_json()


def test_success_and_case_kinds() -> None:
    stream = _interaction("data: [DONE]\n\n", "text/event-stream")
    error = _interaction('{"error": {}}', status=400)
    assert not error.is_success()
    case = Case(
        id="x",
        description="d",
        features=("streaming",),
        dialect="openai-chat",
        profile="openai",
        provenance=Provenance(kind="documented", url="https://example.com"),
        interactions=(error, stream),
        source=Path("corpus/x.yaml"),
    )
    assert case.payload_kinds == ("request", "response", "stream")
    assert case.provenance.reference == "https://example.com"
    assert case.has_feature("streaming")
    assert not case.is_negative
