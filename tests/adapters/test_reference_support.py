"""Shared helpers for the reference adapter's tests (this module holds no tests).

Payloads come from the bundled corpus and are converted through the adapter's
public protocol (``convert``); outputs are read back with the target's codec,
never with the adapter's own code.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import Any

from toolwire.conformance.readings.semantic import (
    SemCall,
    SemItem,
    SemMessage,
    SemResult,
    SemText,
    SemThinking,
    semantic_conversation,
    semantic_message,
)
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.case import Case, Interaction
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import Conversation, PayloadKind, Response, SSEEvent
from toolwire.harness.payloads import with_url_model
from toolwire.harness.schemas import validate_payload

ADAPTER = ReferenceAdapter()

SemView = tuple[tuple[str, tuple[SemItem, ...]], ...]


@cache
def corpus() -> Corpus:
    return load_corpus(bundled_corpus_root())


def positive_cases() -> Iterator[Case]:
    return (case for case in corpus() if not case.is_negative)


def stream_payload(events: tuple[SSEEvent, ...]) -> list[dict[str, Any]]:
    """Events in the protocol's list form."""
    return [
        {"event": e.event, "data": e.data if e.data == "[DONE]" else json.loads(e.data)}
        for e in events
    ]


def payload_of(interaction: Interaction, kind: PayloadKind) -> Any:
    if kind == "request":
        # A Gemini body names no model: the engine adds its URL's (payloads.py).
        return with_url_model(interaction.request_json(), interaction.uri)
    if kind == "stream":
        return stream_payload(interaction.response_events())
    return interaction.response_json()


def adapter_for(case: Case, interaction: Interaction) -> ReferenceAdapter:
    """The adapter bound to the request's tools, as a caller with the request binds it."""
    if case.dialect == "qwen-xml":
        return ADAPTER.with_request(interaction.request_json())
    return ADAPTER


def parse(dialect: str, kind: PayloadKind, payload: Any) -> Conversation | Response:
    codec = get_codec(dialect)
    if kind == "request":
        return codec.parse_request(payload)
    if kind == "response":
        return codec.parse_response(payload)
    events = tuple(
        SSEEvent(
            data=e["data"] if isinstance(e["data"], str) else json.dumps(e["data"]),
            event=e["event"],
        )
        for e in payload
    )
    return codec.parse_stream(events).response


def answer(dialect: str, kind: PayloadKind, payload: Any) -> Response:
    """A response or stream payload read back as the message it carries."""
    parsed = parse(dialect, kind, payload)
    assert isinstance(parsed, Response), f"a {kind} payload parses to a response"
    return parsed


def semantic(dialect: str, kind: PayloadKind, payload: Any) -> tuple[SemMessage, ...]:
    parsed = parse(dialect, kind, payload)
    if isinstance(parsed, Conversation):
        return semantic_conversation(parsed)
    return (semantic_message(parsed),)


def view(
    messages: tuple[SemMessage, ...],
    *,
    ordinal_ids: bool = False,
    drop_signatures: bool = False,
    drop_thinking: bool = False,
    drop_empty_text: bool = False,
) -> SemView:
    """The semantic view with the named normalisations applied.

    ``ordinal_ids`` renames ids by first appearance (twins were recorded
    separately, each with its own ids); ``drop_signatures`` drops thinking
    signatures and redacted thinking (docs/conventions.md: deepseek-chat
    cannot carry them); ``drop_thinking`` drops reasoning entirely (openai-chat
    requests carry none); ``drop_empty_text`` drops empty text (Anthropic
    cannot carry it).
    """
    names: dict[str, str] = {}

    def rename(call_id: str | None) -> str | None:
        if not ordinal_ids or call_id is None:
            return call_id
        return names.setdefault(call_id, f"id-{len(names)}")

    result = []
    for message in messages:
        items: list[SemItem] = []
        for item in message.items:
            if isinstance(item, SemCall):
                item = replace(item, id=rename(item.id))
            elif isinstance(item, SemResult):
                item = replace(item, call_id=rename(item.call_id))
            elif isinstance(item, SemThinking):
                if drop_thinking or (drop_signatures and item.text is None):
                    continue
                if drop_signatures:
                    item = replace(item, signature=None, redacted_data=None)
            elif isinstance(item, SemText) and drop_empty_text and not item.text:
                continue
            items.append(item)
        result.append((message.role, tuple(items)))
    return tuple(result)


def schema_violations(dialect: str, kind: PayloadKind, payload: Any) -> list[tuple[str, str]]:
    if kind != "stream":
        return [(v.path, v.message) for v in validate_payload(dialect, kind, payload)]
    return [
        (f"events[{i}].{v.path}", v.message)
        for i, event in enumerate(payload)
        if event["data"] != "[DONE]"
        for v in validate_payload(dialect, "stream", event["data"])
    ]


def call_ids(messages: tuple[SemMessage, ...]) -> list[str | None]:
    ids: list[str | None] = []
    for message in messages:
        ids += [item.id for item in message.items if isinstance(item, SemCall)]
        ids += [item.call_id for item in message.items if isinstance(item, SemResult)]
    return ids
