"""The dialect schemas: valid draft 2020-12, linked offline, and true to the real recordings.

Every request in ../shared/real-transcripts was accepted by the real API, so
it must validate; so must every status-200 response and every stream event
(the ``[DONE]`` sentinel is not JSON and is skipped). Negative cases live in
tests/test_schemas_negative.py.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.support.real_transcripts import RealTranscript, load_real_transcripts
from toolwire.harness.errors import ToolwireError, UnsupportedDialectError
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS
from toolwire.harness.schemas import (
    MAX_MESSAGE_CHARS,
    SchemaViolation,
    all_schemas,
    format_json_path,
    load_schema,
    schema_file_name,
    schema_registry,
    validate_payload,
)

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _transcripts() -> list[RealTranscript] | str:
    try:
        return load_real_transcripts()
    except pytest.skip.Exception as skipped:
        return str(skipped)


def _params(
    kind: str | None = None, dialect: str | None = None, request: bool = False
) -> list[Any]:
    """One param per transcript (of ``kind`` with status 200, of ``dialect``, when given;
    with ``request``, only those that kept their request body)."""
    found = _transcripts()
    if isinstance(found, str):
        return [pytest.param(None, id="no-transcripts", marks=pytest.mark.skip(reason=found))]
    chosen = [
        t
        for t in found
        if (kind is None or (t.kind == kind and t.status_code == 200))
        and (dialect is None or t.dialect == dialect)
        and (not request or t.request_body is not None)
    ]
    return [pytest.param(t, id=t.name) for t in chosen]


def _stream_events(transcript: RealTranscript) -> Iterator[tuple[int, dict[str, Any]]]:
    assert transcript.sse_events is not None
    for position, event in enumerate(transcript.sse_events):
        if isinstance(event["data"], str):
            assert event["data"] == "[DONE]", f"unexpected non-JSON event data: {event['data']!r}"
            continue
        yield position, event["data"]


# --- the schema files themselves ------------------------------------------


def test_every_dialect_and_kind_has_a_schema_file() -> None:
    expected = {schema_file_name(dialect, kind) for dialect in DIALECTS for kind in PAYLOAD_KINDS}
    assert set(all_schemas()) == expected
    assert len(expected) == 3 * len(DIALECTS)


@pytest.mark.parametrize("file_name", sorted(all_schemas()))
def test_schema_is_valid_draft_2020_12(file_name: str) -> None:
    schema = all_schemas()[file_name]
    assert schema["$schema"] == DRAFT_2020_12
    assert schema["$id"].endswith("/" + file_name)
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("file_name", sorted(all_schemas()))
def test_schema_cites_its_documentation(file_name: str) -> None:
    comment = all_schemas()[file_name]["$comment"]
    assert "https://" in comment, f"{file_name} has no documentation URL in its $comment"


@pytest.mark.parametrize("file_name", sorted(all_schemas()))
def test_every_ref_resolves_inside_the_package(file_name: str) -> None:
    schema = all_schemas()[file_name]
    resolver = schema_registry().resolver(base_uri=schema["$id"])
    refs = list(_refs(schema))
    for ref in refs:
        resolver.lookup(ref)  # raises Unresolvable for a dangling or external $ref


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_stream_schema_names_follow_the_dialect() -> None:
    assert schema_file_name("anthropic-messages", "stream") == (
        "anthropic-messages.stream-event.json"
    )
    assert schema_file_name("openai-chat", "stream") == "openai-chat.stream-chunk.json"
    assert schema_file_name("deepseek-chat", "request") == "deepseek-chat.request.json"


# --- the Python API --------------------------------------------------------


def test_unknown_dialect_is_a_clear_error() -> None:
    with pytest.raises(UnsupportedDialectError) as caught:
        validate_payload("mistral-chat", "request", {})
    assert "unknown dialect 'mistral-chat'" in str(caught.value)
    assert "openai-chat" in str(caught.value)


def test_unknown_kind_is_a_clear_error() -> None:
    with pytest.raises(ToolwireError) as caught:
        load_schema("openai-chat", "transcript")  # type: ignore[arg-type]
    assert "unknown payload kind 'transcript'" in str(caught.value)
    assert "request, response, stream" in str(caught.value)


def test_load_schema_returns_a_copy_that_cannot_corrupt_the_cache() -> None:
    schema = load_schema("openai-chat", "request")
    schema["required"] = []
    assert load_schema("openai-chat", "request")["required"] == ["model", "messages"]
    assert validate_payload("openai-chat", "request", {"messages": []}) != []


def test_violation_is_frozen() -> None:
    violation = SchemaViolation(path="$", message="m", schema_path="#/")
    with pytest.raises(dataclasses.FrozenInstanceError):
        violation.path = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ([], "$"),
        (["messages", 2, "content", 0, "input"], "messages[2].content[0].input"),
        ([0, "type"], "[0].type"),
        (["tool-name with space", "x"], '["tool-name with space"].x'),
    ],
)
def test_format_json_path(parts: list[str | int], expected: str) -> None:
    assert format_json_path(parts) == expected


def test_violations_are_ordered_by_path_with_numeric_indices() -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "hi"} for _ in range(12)]
    messages[10] = {"role": "tool", "content": "x"}
    messages[2] = {"role": "tool", "content": "x"}
    payload = {"model": "gpt-4o", "messages": messages, "n": 0}
    first = validate_payload("openai-chat", "request", payload)
    assert [v.path for v in first] == [
        "messages[2].tool_call_id",
        "messages[10].tool_call_id",
        "n",
    ]
    assert validate_payload("openai-chat", "request", payload) == first


def test_messages_are_capped_and_never_dump_the_value() -> None:
    huge_name = "x" * 5000 + " y"
    payload = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": huge_name}}],
    }
    (violation,) = validate_payload("openai-chat", "request", payload)
    assert violation.path == "tools[0].function.name"
    assert len(violation.message) <= MAX_MESSAGE_CHARS
    assert "does not match ^[a-zA-Z0-9_-]{1,64}$" in violation.message
    assert violation.schema_path.endswith("/pattern")


def test_non_object_payload_is_reported_at_the_root() -> None:
    (violation,) = validate_payload("anthropic-messages", "request", ["not", "an", "object"])
    assert violation.path == "$"
    assert violation.message == "expected object, got array"


# --- the real recordings ---------------------------------------------------


@pytest.mark.parametrize("transcript", _params(request=True))
def test_real_request_validates(transcript: RealTranscript) -> None:
    assert validate_payload(transcript.dialect, "request", transcript.request_body) == []


@pytest.mark.parametrize("transcript", _params("response"))
def test_real_response_validates(transcript: RealTranscript) -> None:
    assert validate_payload(transcript.dialect, "response", transcript.response_body) == []


@pytest.mark.parametrize("transcript", _params("stream"))
def test_real_stream_events_validate(transcript: RealTranscript) -> None:
    failures = {
        position: violations
        for position, data in _stream_events(transcript)
        if (violations := validate_payload(transcript.dialect, "stream", data))
    }
    assert failures == {}


@pytest.mark.parametrize("transcript", _params(dialect="openai-chat", request=True))
def test_real_openai_request_also_fits_the_qwen_xml_envelope(transcript: RealTranscript) -> None:
    assert validate_payload("qwen-xml", "request", transcript.request_body) == []


def test_real_transcript_counts(capsys: pytest.CaptureFixture[str]) -> None:
    found = _transcripts()
    if isinstance(found, str):
        pytest.skip(found)
    counts: Counter[tuple[str, str]] = Counter()
    for transcript in found:
        counts[(transcript.dialect, "request")] += transcript.request_body is not None
        if transcript.kind == "response" and transcript.status_code == 200:
            counts[(transcript.dialect, "response")] += 1
        if transcript.kind == "stream":
            counts[(transcript.dialect, "stream")] += sum(1 for _ in _stream_events(transcript))
    with capsys.disabled():
        print("\nreal payloads validated against the schemas:")
        for (dialect, kind), count in sorted(counts.items()):
            print(f"  {dialect:20} {kind:8} {count:4}")
    folders = {t.folder for t in found}
    expected = ["openai-chat", "anthropic-messages", "deepseek-chat"] * (
        "real-transcripts" in folders
    )
    if "real-transcripts-responses-gemini" in folders:
        expected += ["openai-responses", "gemini"]
    for dialect in expected:
        for kind in PAYLOAD_KINDS:
            assert counts[(dialect, kind)] > 0, f"no real {dialect} {kind} payload to check"
