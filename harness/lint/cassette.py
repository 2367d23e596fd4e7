"""``toolwire lint`` on a recorded conversation: a vcrpy cassette (YAML or
JSON, as vcrpy, pytest-recording and pydantic-ai's serializer write it) or a
HAR 1.2 file.

Bodies are read by the reader ``corpus add`` uses
(``harness/corpus/foreign.py``): text, ``body.string``, ``!!binary`` bytes
(decompressed per ``Content-Encoding``) or ``parsed_body``. A response is a
stream when it says ``text/event-stream`` or when its body is a stream in
another form (a JSON array of chunks, one chunk a line: ``stream_forms``).

An interaction that is not a model call is read and skipped with a note,
never a refusal of the whole cassette: one without a request body (a
background-mode ``GET /v1/responses/{id}`` poll) or one on another endpoint
(``POST /v1/conversations``). A cassette none of whose interactions can be
judged is an error: a pass about nothing would read as clean.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.context import Exchange
from toolwire.conformance.profiles import PROFILES
from toolwire.conformance.registry import REPLAY_CHECKS
from toolwire.harness import json_text
from toolwire.harness.corpus.detect import gemini_path
from toolwire.harness.corpus.foreign import recorded_response_text, request_body_text
from toolwire.harness.corpus.loader import bare_message
from toolwire.harness.errors import CorpusError
from toolwire.harness.lint import dialect_choice
from toolwire.harness.lint.judging import (
    LintInputError,
    LintReport,
    judge,
    judge_xml,
    parse_under_test,
    violations_of,
)
from toolwire.harness.model import DIALECTS, PayloadKind
from toolwire.harness.payloads import events_to_wire
from toolwire.harness.sse import parse_sse
from toolwire.harness.stream_forms import stream_events

# The paths of the model calls of each dialect; anything else is another endpoint.
_CALL_PATHS = ("/chat/completions", "/messages", "/responses", "/completions")
_REQUEST_FIELDS = ("messages", "input", "contents")


def lint_cassette(
    document: Mapping[str, Any],
    source: str,
    dialect: str | None,
    profile: str | None,
    parser_output: bool = False,
) -> LintReport:
    found = document.get("toolwire")
    meta: Mapping[str, Any] = found if isinstance(found, dict) else {}
    said = _meta_choice(meta, "dialect", DIALECTS, source)
    profile = profile or _meta_choice(meta, "profile", tuple(PROFILES), source)
    report = LintReport([], [])
    exchanges: list[Exchange] = []
    for index, item in enumerate(document["interactions"]):
        label = f"{source}, interaction {index + 1}"
        interaction = _mapping(item, label, "an interaction (request and response)")
        sent = _mapping(interaction.get("request"), f"{label} request", "a request mapping")
        body = _request_text(sent, f"{label} request")
        skipped = _not_a_model_call(sent, body)
        if skipped is not None:
            _mapping(interaction.get("response"), f"{label} response", "a response mapping")
            report.notes.append(f"{label}: skipped, {skipped}")
            continue
        request_value = _json_body(body, f"{label} request")
        answer = _recorded_answer(interaction, label)
        if dialect:
            choice = dialect_choice.given(dialect)
        elif said is not None:
            choice = dialect_choice.from_metadata(said)
        else:
            kind, value = answer or ("response", None)
            choice = dialect_choice.from_interaction(sent, request_value, kind, value)
        report.dialects.append((label, choice))
        where = f"{label} request"
        request = parse_under_test(choice.dialect, "request", request_value, profile, where)
        report.violations.extend(judge(request, where))
        response = None
        if answer is not None:
            kind, value = answer
            where = f"{label} {kind}"
            response = parse_under_test(choice.dialect, kind, value, profile, where, request.tools)
            report.violations.extend(judge(response, response.label))
            report.violations.extend(judge_xml(response, response.label, parser_output))
        exchanges.append(Exchange(index, request, response))
    if not exchanges:
        raise LintInputError(
            f"{source}: no interaction is a model call to judge ({'; '.join(report.notes)})"[:600],
            hint="lint judges requests to /chat/completions, /messages, /responses and "
            "Gemini's :generateContent, and their answers",
        )
    if len(exchanges) > 1:
        for code, check in REPLAY_CHECKS.items():
            rule = RULES_BY_CODE[code]
            level = rule.level_for(exchanges[0].request.profile)
            if level is not None:
                report.violations.extend(violations_of(check(exchanges), source, level))
    return report


def _not_a_model_call(request: Mapping[str, Any], body: str | None) -> str | None:
    """Why an interaction is no model call to judge; None when it is one."""
    method = request.get("method")
    uri = request.get("uri")
    try:
        path = urlsplit(uri).path.rstrip("/") if isinstance(uri, str) else ""
    except ValueError:
        path = ""
    shown = f"{method if isinstance(method, str) else ''} {path}".strip() or "the request"
    if body is None or not body.strip():
        return f"{shown} has no request body (not a model call: nothing to judge)"
    if not path or path.endswith(_CALL_PATHS) or gemini_path(path):
        return None
    try:
        value = json_text.loads(body)
    except (json.JSONDecodeError, RecursionError):
        return None  # the JSON error is reported where the body is read
    if isinstance(value, dict) and any(key in value for key in _REQUEST_FIELDS):
        return None  # a proxy's own path in front of a model call
    return f"{shown} is not a model-call endpoint"


def _request_text(request: Mapping[str, Any], where: str) -> str | None:
    try:
        return request_body_text(request, where)
    except CorpusError as error:
        raise LintInputError(f"{where}: {bare_message(error)}", hint=error.hint) from None


def _recorded_answer(interaction: Mapping[str, Any], label: str) -> tuple[PayloadKind, Any] | None:
    """The response's kind and wire value; None for an error answer."""
    where = f"{label} response"
    response = _mapping(interaction.get("response"), where, "a response mapping")
    status = _status_code(response.get("status"), where)
    if not 200 <= status < 300:
        return None  # an error body documents the API's answer to a broken request
    found_headers = response.get("headers")
    if found_headers is None:
        found_headers = {}
    headers_map = _mapping(found_headers, f"{where} headers", "a mapping of name to values")
    headers = {
        str(k).lower(): [str(v) for v in (value if isinstance(value, list) else [value])]
        for k, value in headers_map.items()
    }
    body = response.get("body")
    if isinstance(body, dict):
        body = body.get("string")
    if body is not None and not isinstance(body, str | bytes | bytearray):
        # Never skipped in silence: a response not linted must not read as clean.
        raise LintInputError(
            f"{where}: body.string is {type(body).__name__}, not text",
            hint="store the body as text, as `toolwire corpus add` does",
        )
    try:
        text = recorded_response_text(response, headers, where)
    except CorpusError as error:
        raise LintInputError(f"{where}: {bare_message(error)}", hint=error.hint) from None
    content_type = " ".join(headers.get("content-type", []))
    if "text/event-stream" in content_type:
        return "stream", events_to_wire(parse_sse(text))
    # Gemini's streamGenerateContent without ?alt=sse answers a JSON array of
    # chunks as application/json; a capture may keep a chunk per line.
    events = stream_events(text) if not _one_json_object(text) else None
    if events:
        return "stream", events_to_wire(events)
    return "response", _json_body(text, where)


def _one_json_object(text: str) -> bool:
    try:
        return isinstance(json_text.loads(text), dict)
    except (json.JSONDecodeError, RecursionError):
        return False


def _glimpse(value: Any) -> str:
    """``int 1``, ``str 'OK'``, ``null``: the type and the start of the value."""
    if value is None:
        return "null"
    try:
        shown = reprlib.repr(value)
    except ValueError:  # an integer past Python's digit limit
        shown = "(too long to show)"
    return f"{type(value).__name__} {shown}"


def _mapping(value: Any, where: str, what: str) -> Mapping[str, Any]:
    """``value`` when it is a mapping; else one line saying what was expected."""
    if isinstance(value, dict):
        return value
    raise LintInputError(
        f"{where}: expected {what}, found {_glimpse(value)}",
        hint="a vcrpy cassette: interactions of {request: {body}, response: {status, headers, "
        "body: {string}}}",
    )


def _status_code(value: Any, where: str) -> int:
    """The HTTP status of a cassette response (absent: 200)."""
    code = value.get("code", 200) if isinstance(value, dict) else value
    if value is None:
        return 200
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    raise LintInputError(
        f"{where}: status {value!r} is not an HTTP status"[:300],
        hint="write status: {code: 200, message: OK}",
    )


def _meta_choice(meta: Mapping[str, Any], key: str, valid: Sequence[str], source: str) -> Any:
    """``toolwire.dialect`` / ``toolwire.profile`` of a cassette, when one is given."""
    value = meta.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or value not in valid:
        # An unknown profile would judge no rule at all: a pass about nothing.
        raise LintInputError(
            f"{source}: toolwire.{key} {value!r} is not a {key}",
            hint=f"use one of: {', '.join(valid)}",
        )
    return value


def _json_body(body: str | None, where: str) -> Any:
    if not isinstance(body, str):
        raise LintInputError(f"{where}: has no body")
    try:
        return json_text.loads(body)
    except json.JSONDecodeError as error:
        raise LintInputError(f"{where}: body is not JSON ({error.msg})") from None
    except RecursionError:
        raise LintInputError(f"{where}: body nests deeper than toolwire can read") from None
