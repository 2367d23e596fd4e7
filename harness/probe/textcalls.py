"""Tool calls written as text: Qwen3-Coder XML, or JSON in the text.

A model whose server does not parse tool calls writes them into the
message text. Two forms are recognised:

* ``xml``: Qwen3-Coder markup (``<tool_call><function=NAME><parameter=...>``,
  WIRE.md 1.4), read by the project's incremental parser
  (``toolwire.harness.dialects.qwen_xml``), values typed by the tools' schemas. A call
  the parser rejects is never executable; its issue codes are kept.
* ``json-text``: a JSON object ``{"name": ..., "arguments": {...}}`` (or
  ``parameters`` / ``input``) anywhere in the text: bare, in a code fence, or
  between ``<tool_call>`` tags as Hermes-style templates write it.

Anything else is prose.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.harness.dialects.qwen_xml import CallSegment, QwenParse, QwenXmlParser, RejectedCall
from toolwire.harness.model import ToolDef

XML = "xml"
JSON_TEXT = "json-text"
XML_PARSER = "qwen_xml"
JSON_PARSER = "json_text"
_ARGUMENT_KEYS = ("arguments", "parameters", "input")
# Bounds for the JSON scan: the text of one answer, not a document.
_MAX_SCAN_CHARS = 200_000
_MAX_CANDIDATES = 500


@dataclass(frozen=True)
class TextCall:
    """One call found in text. ``problems`` is empty for an executable call."""

    name: str | None
    arguments: Any
    raw: str
    problems: tuple[str, ...] = ()
    # A call the parser refused (broken markup): never to be executed.
    rejected: bool = False


@dataclass(frozen=True)
class TextCalls:
    """What the text holds: its format (``xml``, ``json-text`` or None for
    prose), the parser that read it, the calls, and the text without them."""

    format: str | None
    parser: str | None
    calls: tuple[TextCall, ...]
    text: str


def find_text_calls(text: str, tools: Sequence[ToolDef]) -> TextCalls:
    """The calls written in ``text`` (XML first, then JSON)."""
    return text_calls_from_fragments((text,), tools)


def text_calls_from_fragments(fragments: Iterable[str], tools: Sequence[ToolDef]) -> TextCalls:
    """As ``find_text_calls``, feeding the XML parser fragment by fragment,
    as a streamed answer arrives."""
    parser = QwenXmlParser(tools)
    pieces: list[str] = []
    for fragment in fragments:
        pieces.append(fragment)
        parser.feed(fragment)
    text = "".join(pieces)
    parse = parser.finish()
    xml = _xml_calls(parse)
    if xml:
        return TextCalls(XML, XML_PARSER, xml, parse.text.strip())
    found = json_calls(text)
    if found:
        return TextCalls(JSON_TEXT, JSON_PARSER, found, text.strip())
    return TextCalls(None, None, (), text.strip())


def _xml_calls(parse: QwenParse) -> tuple[TextCall, ...]:
    calls: list[TextCall] = []
    for segment in parse.segments:
        if isinstance(segment, CallSegment):
            call = segment.call
            calls.append(TextCall(call.name, call.arguments, segment.raw))
        elif isinstance(segment, RejectedCall) and "<function=" in segment.raw:
            problems = tuple(f"{issue.code}: {issue.message}" for issue in segment.issues)
            calls.append(TextCall(segment.name, None, segment.raw, problems, rejected=True))
    return tuple(calls)


def json_calls(text: str) -> tuple[TextCall, ...]:
    """JSON objects in ``text`` that name a tool and carry its arguments."""
    decoder = json.JSONDecoder()
    calls: list[TextCall] = []
    scanned = text[:_MAX_SCAN_CHARS]
    start, candidates = scanned.find("{"), 0
    while start >= 0 and candidates < _MAX_CANDIDATES:
        candidates += 1
        try:
            value, end = decoder.raw_decode(scanned, start)
        except ValueError:
            start = scanned.find("{", start + 1)
            continue
        call = _as_call(value, scanned[start:end])
        if call is not None:
            calls.append(call)
            start = scanned.find("{", end)
        else:
            start = scanned.find("{", start + 1)  # a wrapper may hold calls inside
    return tuple(calls)


def _as_call(value: Any, raw: str) -> TextCall | None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    key = next((k for k in _ARGUMENT_KEYS if k in value), None)
    if key is None:
        return None
    arguments = value[key]
    if isinstance(arguments, str):
        # Arguments double-encoded as a JSON string: read them, but say so.
        try:
            decoded = json.loads(arguments)
        except ValueError:
            problem = (f"{key} is a string, not JSON",)
            return TextCall(value["name"], None, raw, problem, rejected=True)
        return TextCall(value["name"], decoded, raw, (f"{key} is JSON encoded in a string",))
    return TextCall(value["name"], arguments, raw)
