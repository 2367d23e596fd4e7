"""The codecs, the Qwen XML parser, the SSE reader and `toolwire lint` on hostile input.

Whatever they are given (arbitrary JSON, valid payloads with one part broken,
arbitrary text and bytes), the only exception that may escape is a
``ToolwireError`` (a ``WireFormatError`` for payloads): a one-line message
for the user, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.fuzz.hostile import (
    broken_requests,
    broken_responses,
    broken_streams,
    json_values,
    qwen_texts,
)
from tests.fuzz.sizes import HOSTILE_EXAMPLES
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml import QwenXmlParser, parse_qwen_xml
from toolwire.harness.errors import ToolwireError
from toolwire.harness.lint.check import lint_text
from toolwire.harness.model import DIALECTS, SSEEvent, ToolDef
from toolwire.harness.payloads import wire_to_events
from toolwire.harness.sse import parse_sse, render_sse

HOSTILE = settings(
    max_examples=HOSTILE_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# Tools a Qwen XML text is typed by: every JSON Schema type the values know.
QWEN_TOOLS = (
    ToolDef(
        "get_weather",
        parameters={
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "ratio": {"type": "number"},
                "flag": {"type": "boolean"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "a": {"type": "object"},
            },
            "required": ["city"],
        },
    ),
)


def parse_or_refuse(parse: Any, payload: Any) -> None:
    """Call ``parse``; a ToolwireError is a refusal, anything else escapes."""
    with contextlib.suppress(ToolwireError):
        parse(payload)


def _events(values: list[Any]) -> tuple[SSEEvent, ...]:
    return tuple(
        SSEEvent(data=value if isinstance(value, str) else json.dumps(value)) for value in values
    )


@pytest.mark.parametrize("dialect", DIALECTS)
@HOSTILE
@given(payload=json_values)
def test_arbitrary_json_is_parsed_or_refused(dialect: str, payload: Any) -> None:
    codec = get_codec(dialect)
    parse_or_refuse(codec.parse_request, payload)
    parse_or_refuse(codec.parse_response, payload)


@pytest.mark.parametrize("dialect", DIALECTS)
@HOSTILE
@given(values=st.lists(json_values, max_size=8))
def test_arbitrary_events_are_reassembled_or_refused(dialect: str, values: list[Any]) -> None:
    parse_or_refuse(get_codec(dialect).parse_stream, _events(values))


@pytest.mark.parametrize("dialect", DIALECTS)
@HOSTILE
@given(data=st.data())
def test_valid_payloads_with_one_part_broken(dialect: str, data: st.DataObject) -> None:
    codec = get_codec(dialect)
    parse_or_refuse(codec.parse_request, data.draw(broken_requests(dialect)))
    parse_or_refuse(codec.parse_response, data.draw(broken_responses(dialect)))
    events = data.draw(broken_streams(dialect))
    with contextlib.suppress(ToolwireError):  # not even an event list: refused first
        parse_or_refuse(codec.parse_stream, wire_to_events(events))


@HOSTILE
@given(text=qwen_texts, typed=st.booleans())
def test_qwen_xml_parser_never_raises(text: str, typed: bool) -> None:
    parse = parse_qwen_xml(text, QWEN_TOOLS if typed else None)
    # Every character is accounted for: text, call markup or rejected markup.
    assert len(parse.segments) >= (1 if text.strip() else 0)


@HOSTILE
@given(text=qwen_texts, cuts=st.lists(st.integers(0, 200), max_size=6))
def test_qwen_xml_parser_gives_the_same_parse_for_any_split(text: str, cuts: list[int]) -> None:
    whole = parse_qwen_xml(text, QWEN_TOOLS)
    parser = QwenXmlParser(QWEN_TOOLS)
    start = 0
    for cut in sorted(min(cut, len(text)) for cut in cuts):
        parser.feed(text[start:cut])
        start = cut
    parser.feed(text[start:])
    assert parser.finish() == whole


@HOSTILE
@given(text=st.one_of(qwen_texts, st.text()))
def test_qwen_codec_reads_any_assistant_text(text: str) -> None:
    response = {
        "id": "x",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
    }
    codec = get_codec("qwen-xml")
    parsed = codec.parse_response(response, tools=QWEN_TOOLS)
    assert codec.render_response(parsed)["choices"][0]["message"]["content"] == text


@HOSTILE
@given(text=st.text())
def test_sse_reader_reads_any_text(text: str) -> None:
    events = parse_sse(text)
    assert parse_sse(render_sse(events)) == events


@HOSTILE
@given(
    text=st.one_of(
        st.text(),
        st.binary().map(lambda data: data.decode("utf-8", errors="replace")),
        json_values.map(json.dumps),
        st.lists(json_values, max_size=4).map(
            lambda values: "".join(f"data: {json.dumps(v)}\n\n" for v in values)
        ),
        st.sampled_from(("{", "[", "data:", "interactions: [", "version: 1\ninteractions: []")),
    ),
    dialect=st.one_of(st.none(), st.sampled_from(DIALECTS)),
)
# Found by this test on a fresh clone: choices that are not a list, with no dialect given.
@example(text='{"choices": true}', dialect=None)
def test_lint_reads_any_file_or_refuses_it(text: str, dialect: str | None) -> None:
    try:
        lint_text(text, "fuzz-input", dialect=dialect)
    except ToolwireError as error:
        assert "\n" not in error.message.strip() or error.message  # a message, not a crash


@HOSTILE
@given(text=qwen_texts, schema=json_values, name=st.sampled_from(("get_weather", "x")))
def test_qwen_codec_types_values_by_any_schema_or_refuses(
    text: str, schema: Any, name: str
) -> None:
    request = {
        "model": "qwen",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": text},
            {"role": "user", "content": "again"},
        ],
        "tools": [{"type": "function", "function": {"name": name, "parameters": schema}}],
    }
    parse_or_refuse(get_codec("qwen-xml").parse_request, request)
    if isinstance(schema, dict):
        parse_qwen_xml(text, (ToolDef(name, parameters=schema),))


def test_anthropic_stream_with_a_delta_type_that_is_not_a_string() -> None:
    # Found by test_valid_payloads_with_one_part_broken: a list as delta type
    # raised TypeError (unhashable) in the reassembler.
    events = [
        {
            "type": "message_start",
            "message": {
                "id": "m",
                "type": "message",
                "role": "assistant",
                "model": "c",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": [], "text": "ok"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}},
        {"type": "message_stop"},
    ]
    transcript = get_codec("anthropic-messages").parse_stream(_events(events))
    assert [(i.code, i.event_index) for i in transcript.issues] == [("unknown_delta", 2)]
    assert transcript.response.message.text == ""  # the delta was not applied
