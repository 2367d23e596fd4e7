"""``toolwire lint``: protocol checks on payloads, with no adapter.

Takes a request, a response, a stream (``data:`` lines, a JSON list of
events, or JSON lines: one chunk object per line, as vercel/ai and other
test suites store streams) or a whole cassette, in any dialect (given, or
chosen as ``dialect_choice`` says, and reported with the reason). Applies every
payload rule; on a multi-request cassette also the replay rules; on a
Qwen3-Coder tool parser's served output (qwen-xml) the xml rules
(``xml_rules``).
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.context import Exchange, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.profiles import DEFAULT_PROFILE, PROFILES
from toolwire.conformance.registry import PAYLOAD_CHECKS, REPLAY_CHECKS
from toolwire.harness import json_text
from toolwire.harness.corpus.loader import read_yaml
from toolwire.harness.errors import CorpusError, ToolwireError
from toolwire.harness.lint import dialect_choice, xml_rules
from toolwire.harness.lint.dialect_choice import DialectChoice
from toolwire.harness.model import DIALECTS, PayloadKind
from toolwire.harness.payloads import events_to_wire, parse_payload
from toolwire.harness.redaction import redact
from toolwire.harness.sse import parse_sse
from toolwire.harness.stream_forms import chunk_array_events, json_lines_events, stream_events


class LintInputError(ToolwireError):
    exit_code = 2


ACCEPTED_FORMATS = (
    "toolwire lint reads: a JSON request or response body; an event stream (SSE `data:` "
    "lines); a JSON list of events; a JSON array of stream chunks (Gemini's "
    "streamGenerateContent without ?alt=sse); JSON lines (one stream chunk object per line); "
    "a vcrpy cassette (YAML or JSON, bodies as text, bytes or parsed_body); a HAR 1.2 file "
    "(docs/lint.md)"
)


@dataclass(frozen=True)
class LintViolation:
    source: str  # "file.json" or "cassette.yaml, interaction 2 request"
    code: str
    level: str
    message: str
    path: str

    def line(self) -> str:
        where = f"{self.source} at {self.path}" if self.path else self.source
        return f"{where}: {self.level} {self.code}: {self.message}"


@dataclass(frozen=True)
class LintReport:
    """What one file gave: its violations, and the dialect each part was read in."""

    violations: list[LintViolation]
    dialects: list[tuple[str, DialectChoice]]  # (source, choice), in reading order


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
        if isinstance(value, dict) and isinstance(value.get("interactions"), list):
            return _lint_cassette(value, source, dialect, profile, parser_output)
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
        return _lint_cassette(document, source, dialect, profile, parser_output)
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
    under_test = _parse(choice.dialect, kind, value, profile, source)
    violations = _judge(under_test, source) + _judge_xml(under_test, source, parser_output)
    return LintReport(violations, [(source, choice)])


def _parse(
    dialect: str, kind: PayloadKind, value: Any, profile: str | None, source: str, tools: Any = None
) -> PayloadUnderTest:
    try:
        return parse_payload(
            dialect, kind, value, profile or DEFAULT_PROFILE[dialect], tools, source
        )
    except ToolwireError as error:
        raise LintInputError(f"{source}: not a valid {dialect} {kind}: {error}") from error
    except RecursionError:
        raise LintInputError(f"{source}: nested deeper than toolwire can read") from None


def _judge(payload: PayloadUnderTest, source: str) -> list[LintViolation]:
    violations = []
    for code, check in PAYLOAD_CHECKS.items():
        rule = RULES_BY_CODE[code]
        level = rule.level_for(payload.profile)
        if level is None or not rule.applies_to_dialect(payload.dialect):
            continue
        violations.extend(_violations(check(payload), source, level))
    return violations


def _judge_xml(payload: PayloadUnderTest, source: str, parser_output: bool) -> list[LintViolation]:
    """The xml rules on a Qwen tool parser's served output (``xml_rules``)."""
    try:
        found = xml_rules.parser_output_checks(payload, parser_output)
    except ToolwireError as error:
        raise LintInputError(f"{source}: cannot rebuild the model text: {error}") from error
    return [LintViolation(source, f.code, level, f.message, f.path) for level, f in found or ()]


def _violations(found: Sequence[Finding] | None, source: str, level: str) -> list[LintViolation]:
    # Redacted: a message may quote the payload, and a cassette may hold a key.
    return [LintViolation(source, f.code, level, redact(f.message), f.path) for f in found or ()]


def _lint_cassette(
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
        request_value = _json_body(sent.get("body"), f"{label} request")
        answer = _recorded_answer(interaction, label)
        if dialect:
            choice = dialect_choice.given(dialect)
        elif said is not None:
            choice = dialect_choice.from_metadata(said)
        else:
            kind, value = answer or ("response", None)
            choice = dialect_choice.from_interaction(sent, request_value, kind, value)
        report.dialects.append((label, choice))
        request = _parse(choice.dialect, "request", request_value, profile, f"{label} request")
        report.violations.extend(_judge(request, f"{label} request"))
        response = None
        if answer is not None:
            kind, value = answer
            where = f"{label} {kind}"
            response = _parse(choice.dialect, kind, value, profile, where, request.tools)
            report.violations.extend(_judge(response, response.label))
            report.violations.extend(_judge_xml(response, response.label, parser_output))
        exchanges.append(Exchange(index, request, response))
    if len(exchanges) > 1:
        for code, check in REPLAY_CHECKS.items():
            rule = RULES_BY_CODE[code]
            level = rule.level_for(exchanges[0].request.profile)
            if level is not None:
                report.violations.extend(_violations(check(exchanges), source, level))
    return report


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
    headers = {str(k).lower(): v for k, v in headers_map.items()}
    body = response.get("body")
    if isinstance(body, dict):
        body = body.get("string")
    if isinstance(body, bytes | bytearray):
        body = _decoded(body, headers, where)
    if not isinstance(body, str):
        # Never skipped in silence: a response not linted must not read as clean.
        raise LintInputError(
            f"{where}: body.string is {type(body).__name__}, not text",
            hint="store the body as text, as `toolwire corpus add` does",
        )
    text = body
    found_type = headers.get("content-type") or []
    content_type = " ".join(map(str, found_type if isinstance(found_type, list) else [found_type]))
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


def _decoded(body: bytes | bytearray, headers: Mapping[str, Any], where: str) -> str:
    """A binary (``!!binary``) body decoded as `toolwire corpus add` decodes it."""
    from toolwire.harness.corpus.foreign import response_body_text
    from toolwire.harness.corpus.loader import bare_message
    from toolwire.harness.errors import CorpusError

    lists = {name: value if isinstance(value, list) else [value] for name, value in headers.items()}
    try:
        return response_body_text(bytes(body), lists, where)
    except CorpusError as error:
        raise LintInputError(f"{where}: {bare_message(error)}", hint=error.hint) from None


def _json_body(body: Any, where: str) -> Any:
    if isinstance(body, dict):
        body = body.get("string")
    if not isinstance(body, str):
        raise LintInputError(f"{where}: has no body")
    try:
        return json_text.loads(body)
    except json.JSONDecodeError as error:
        raise LintInputError(f"{where}: body is not JSON ({error.msg})") from None
    except RecursionError:
        raise LintInputError(f"{where}: body nests deeper than toolwire can read") from None
