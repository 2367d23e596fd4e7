"""``toolwire lint``: protocol checks on payloads, with no adapter.

Takes a request, a response, a stream (``data:`` lines, a JSON list of
events, a JSON array of chunks as Gemini's streamGenerateContent sends
without ``?alt=sse``, or JSON lines: one chunk object per line, as vercel/ai
and other test suites store streams) or a whole recorded conversation (a
vcrpy cassette or a HAR file: ``cassette.py``), in any dialect (given, or
chosen as ``dialect_choice`` says, and reported with the reason). Applies every
payload rule; on a multi-request cassette also the replay rules; on a
Qwen3-Coder tool parser's served output (qwen-xml) the xml rules
(``xml_rules``). docs/lint.md lists every form read.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.conformance.profiles import PROFILES
from toolwire.harness import json_text
from toolwire.harness.corpus.har import har_to_cassette
from toolwire.harness.corpus.loader import read_yaml
from toolwire.harness.errors import CorpusError
from toolwire.harness.lint import dialect_choice
from toolwire.harness.lint.cassette import lint_cassette
from toolwire.harness.lint.judging import (
    LintInputError,
    LintReport,
    LintViolation,
    judge,
    judge_xml,
    parse_under_test,
)
from toolwire.harness.model import DIALECTS, PayloadKind
from toolwire.harness.payloads import events_to_wire
from toolwire.harness.sse import parse_sse
from toolwire.harness.stream_forms import chunk_array_events, json_lines_events

__all__ = [
    "ACCEPTED_FORMATS",
    "LintInputError",
    "LintReport",
    "LintViolation",
    "detect_dialect",
    "lint_report",
    "lint_text",
]

ACCEPTED_FORMATS = (
    "toolwire lint reads: a JSON request or response body; an event stream (SSE `data:` "
    "lines); a JSON list of events; a JSON array of stream chunks (Gemini's "
    "streamGenerateContent without ?alt=sse); JSON lines (one stream chunk object per line); "
    "a vcrpy cassette (YAML or JSON, bodies as text, bytes or parsed_body); a HAR 1.2 file "
    "(docs/lint.md)"
)


def lint_text(
    text: str, source: str, dialect: str | None = None, profile: str | None = None
) -> list[LintViolation]:
    """Lint one file's contents; raise LintInputError when it is not a payload."""
    return lint_report(text, source, dialect, profile).violations


def lint_report(
    text: str,
    source: str,
    dialect: str | None = None,
    profile: str | None = None,
    parser_output: bool = False,
) -> LintReport:
    """Lint one file's contents and say which dialect each part was read in.

    ``parser_output``: qwen-xml answers are a tool parser's output even when
    they hold no structured call (see ``xml_rules``).
    """
    _check_choices(dialect, profile)
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        value = _json_document(text, source)
        value = har_to_cassette(value) or value  # a HAR 1.2 file (Polly.js) holds a cassette
        if isinstance(value, dict) and isinstance(value.get("interactions"), list):
            return lint_cassette(value, source, dialect, profile, parser_output)
        kind = "stream" if isinstance(value, list) else _kind_of(value, source)
        return _lint_payload(kind, value, source, dialect, profile, parser_output)
    if any(line.startswith("data:") for line in stripped.splitlines()[:20]):
        events = events_to_wire(parse_sse(text))
        return _lint_payload("stream", events, source, dialect, profile, parser_output)
    try:
        document = read_yaml(text, source)
    except CorpusError as error:
        if "interactions:" in text:  # a cassette that cannot be read: say why
            raise LintInputError(str(error)) from None
        document = None
    if isinstance(document, dict) and isinstance(document.get("interactions"), list):
        return lint_cassette(document, source, dialect, profile, parser_output)
    raise LintInputError(
        f"{source}: not a request, response, stream or cassette", hint=ACCEPTED_FORMATS
    )


def _json_document(text: str, source: str) -> Any:
    """A JSON value, or the events of a JSON-lines chunk capture."""
    try:
        value = json_text.loads(text)
    except json.JSONDecodeError as error:
        chunks = json_lines_events(text)
        if chunks is not None:
            return events_to_wire(chunks)
        raise LintInputError(
            f"{source}: not valid JSON ({error.msg}, line {error.lineno})", hint=ACCEPTED_FORMATS
        ) from None
    except RecursionError:
        raise LintInputError(f"{source}: JSON nested deeper than toolwire can read") from None
    chunks = chunk_array_events(value)  # Gemini's streamGenerateContent without ?alt=sse
    return events_to_wire(chunks) if chunks is not None else value


def _check_choices(dialect: str | None, profile: str | None) -> None:
    if dialect is not None and dialect not in DIALECTS:
        raise LintInputError(
            f"unknown dialect {dialect!r}", hint=f"use one of: {', '.join(DIALECTS)}"
        )
    if profile is not None and profile not in PROFILES:
        raise LintInputError(
            f"unknown profile {profile!r}", hint=f"use one of: {', '.join(PROFILES)}"
        )


def _kind_of(value: Any, source: str) -> PayloadKind:
    if isinstance(value, dict):
        # openai-responses: a request has "input", a Response object "output";
        # gemini: a request has "contents", a response "candidates".
        if (
            "messages" in value
            or "contents" in value
            or ("input" in value and "output" not in value)
        ):
            return "request"
        if (
            "choices" in value
            or value.get("type") == "message"
            or "output" in value
            or "candidates" in value
        ):
            return "response"
    raise LintInputError(
        f"{source}: cannot tell whether this JSON is a request or a response",
        hint='a request has "messages", "input" (Responses) or "contents" (Gemini); '
        'a response has "choices", "type": "message", "output" or "candidates"',
    )


def detect_dialect(kind: PayloadKind, value: Any) -> str:
    """The dialect a payload is written in, from the fields only one dialect uses."""
    return dialect_choice.from_body(kind, value).dialect


def _lint_payload(
    kind: PayloadKind,
    value: Any,
    source: str,
    dialect: str | None,
    profile: str | None,
    parser_output: bool,
) -> LintReport:
    choice = dialect_choice.given(dialect) if dialect else dialect_choice.from_body(kind, value)
    under_test = parse_under_test(choice.dialect, kind, value, profile, source)
    violations = judge(under_test, source) + judge_xml(under_test, source, parser_output)
    return LintReport(violations, [(source, choice)])
