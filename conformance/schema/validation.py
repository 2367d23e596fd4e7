"""schema.*: every payload validates against its dialect's JSON Schema.

The schemas (``harness/schemas``, see docs/schemas.md) are written from the
providers' documentation and validate the raw payload exactly as sent: a
request, a response, or each event of a stream. A stream event's data is
validated on its own; the openai-chat ``[DONE]`` sentinel is not JSON and not
an event, and an event whose data is not JSON at all is reported here (no
schema can accept it). Each finding carries the violation's JSON path, its
one-line message and the schema keyword path.

Gemini's API reads its JSON as the protobuf JSON mapping, where ``null`` on a
message field means the field is absent ("null is an accepted value for all
field types and treated as the default value of the corresponding field
type", https://protobuf.dev/programming-guides/json/): the API accepted a
function declaration with ``"description": null`` (simonw/llm-gemini's
cassette ``tests/cassettes/test_gemini/test_tools.yaml``). Such members are
left out before a gemini payload is validated; inside the fields that carry
free JSON (``args``, ``response``, the JSON-Schema fields) ``null`` is a value
and stays.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolwire.conformance.context import (
    ConversionCheck,
    PayloadCheck,
    PayloadUnderTest,
    RoundTripCheck,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.schema.gemini_parameters import check_gemini_parameters
from toolwire.conformance.sources import ANTHROPIC_DOCS, DEEPSEEK_THINKING, OPENAI_DOCS
from toolwire.harness import json_text
from toolwire.harness.model import GEMINI, PayloadKind, SSEEvent
from toolwire.harness.schemas import SchemaViolation, validate_payload
from toolwire.harness.sse import parse_sse

REQUEST = rule(
    "schema.request",
    "MUST",
    "payload",
    "Every request validates against its dialect's JSON Schema.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    DEEPSEEK_THINKING,
    evidence=(
        documented(OPENAI_DOCS, "the request body's fields and types"),
        documented(ANTHROPIC_DOCS, "the request body's fields and types"),
        documented(DEEPSEEK_THINKING, "the request body's fields in thinking mode"),
    ),
    fix=(
        "Write the request in the shape the target's documentation gives: required fields "
        "present (anthropic `max_tokens`), known fields with the right types."
    ),
)


RESPONSE = rule(
    "schema.response",
    "MUST",
    "payload",
    "Every response and stream event validates against its dialect's JSON Schema.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    DEEPSEEK_THINKING,
    evidence=(
        documented(OPENAI_DOCS, "the response and chunk objects' fields and types"),
        documented(ANTHROPIC_DOCS, "the response and event objects' fields and types"),
        documented(DEEPSEEK_THINKING, "the response fields in thinking mode"),
    ),
    fix=(
        "Write responses and stream events in the shape the dialect documents: required "
        "fields (a message's `role`), known values (finish_reason), right types."
    ),
)


DONE = "[DONE]"


def check_request(payload: PayloadUnderTest) -> list[Finding] | None:
    if payload.kind != "request":
        return None
    return _violations("schema.request", payload.dialect, "request", payload.raw, "")


def check_response(payload: PayloadUnderTest) -> list[Finding] | None:
    if payload.kind == "response":
        return _violations("schema.response", payload.dialect, "response", payload.raw, "")
    if payload.kind != "stream":
        return None
    found: list[Finding] = []
    for index, event in enumerate(stream_events(payload)):
        if event.data.strip() == DONE:
            continue
        where = f"events[{index}]"
        try:
            data = json_text.loads(event.data)
        except ValueError as error:
            found.append(
                finding(
                    "schema.response",
                    f"the data of the event at {where} is not JSON ({error}); every stream "
                    "event carries one JSON object",
                    f"{where}.data",
                    expected="a JSON object",
                    actual=event.data[:60],
                )
            )
            continue
        found.extend(_violations("schema.response", payload.dialect, "stream", data, where))
    return found


def stream_events(payload: PayloadUnderTest) -> Sequence[SSEEvent]:
    """The events of a streamed payload: from the parsed transcript, else from
    the raw form (SSE text, or a list of events)."""
    if payload.stream is not None:
        return payload.stream.events
    raw = payload.raw
    if isinstance(raw, str):
        return parse_sse(raw)
    if isinstance(raw, Sequence):
        return [_as_event(item) for item in raw]
    return []


def _as_event(item: Any) -> SSEEvent:
    if isinstance(item, SSEEvent):
        return item
    if isinstance(item, dict):  # {"event": ..., "data": text or decoded JSON}
        data = item.get("data")
        text = data if isinstance(data, str) else json.dumps(data)
        event = item.get("event")
        return SSEEvent(data=text, event=event if isinstance(event, str) else None)
    return SSEEvent(data=str(item))


def _violations(
    code: str, dialect: str, kind: PayloadKind, data: Any, prefix: str
) -> list[Finding]:
    if dialect == GEMINI:
        data = without_nulls(data)
    return [
        _finding(code, violation, prefix) for violation in validate_payload(dialect, kind, data)
    ]


# Gemini fields whose value is free JSON (google.protobuf.Struct or Value): a
# null inside them is a JSON value, not an absent field.
_FREE_JSON = frozenset({"args", "response", "parametersJsonSchema", "responseJsonSchema"})


def without_nulls(value: Any) -> Any:
    """``value`` with every ``null`` object member left out, as protobuf JSON
    reads it, except inside the free-JSON fields."""
    if isinstance(value, dict):
        return {
            key: item if key in _FREE_JSON else without_nulls(item)
            for key, item in value.items()
            if item is not None
        }
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


def _finding(code: str, violation: SchemaViolation, prefix: str) -> Finding:
    path = _join(prefix, violation.path)
    # The path is the finding's own field; the message says what is wrong there.
    return finding(code, f"{violation.message} (schema {violation.schema_path})", path)


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if path == "$":
        return f"{prefix}.data"
    joiner = "" if path.startswith("[") else "."
    return f"{prefix}.data{joiner}{path}"


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "schema.gemini_parameters": check_gemini_parameters,
    "schema.request": check_request,
    "schema.response": check_response,
}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {}
