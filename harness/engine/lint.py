"""``toolwire lint``: protocol checks on payloads, with no adapter.

Takes a request, a response, a stream (``data:`` lines, a JSON list of
events, or JSON lines: one chunk object per line, as vercel/ai and other
test suites store streams) or a whole cassette, in any dialect (given, or
chosen as ``lint_dialect`` says, and reported with the reason). Applies every
payload rule; on a multi-request cassette also the replay rules.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.catalogue import RULES_BY_CODE
from conformance.context import Exchange, PayloadUnderTest
from conformance.findings import Finding
from conformance.profiles import DEFAULT_PROFILE, PROFILES
from conformance.registry import PAYLOAD_CHECKS, REPLAY_CHECKS
from harness import json_text
from harness.corpus.loader import read_yaml
from harness.engine import lint_dialect
from harness.engine.lint_dialect import DialectChoice
from harness.engine.payloads import events_to_wire, parse_payload
from harness.errors import CorpusError, ToolwireError
from harness.model import DIALECTS, PayloadKind
from harness.redaction import redact
from harness.sse import parse_sse


class LintInputError(ToolwireError):
    exit_code = 2


ACCEPTED_FORMATS = (
    "toolwire lint reads: a JSON request or response body; an event stream (SSE `data:` "
    "lines); a JSON list of events; JSON lines (one stream chunk object per line); "
    "a vcrpy cassette (YAML or JSON)"
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
    text: str, source: str, dialect: str | None = None, profile: str | None = None
) -> LintReport:
    """Lint one file's contents and say which dialect each part was read in."""
    _check_choices(dialect, profile)
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        value = _json_document(text, source)
        if isinstance(value, dict) and isinstance(value.get("interactions"), list):
            return _lint_cassette(value, source, dialect, profile)
        kind = "stream" if isinstance(value, list) else _kind_of(value, source)
        return _lint_payload(kind, value, source, dialect, profile)
    if any(line.startswith("data:") for line in stripped.splitlines()[:20]):
        events = events_to_wire(parse_sse(text))
        return _lint_payload("stream", events, source, dialect, profile)
    try:
        document = read_yaml(text, source)
    except CorpusError as error:
        if "interactions:" in text:  # a cassette that cannot be read: say why
            raise LintInputError(str(error)) from None
        document = None
    if isinstance(document, dict) and isinstance(document.get("interactions"), list):
        return _lint_cassette(document, source, dialect, profile)
    raise LintInputError(
        f"{source}: not a request, response, stream or cassette", hint=ACCEPTED_FORMATS
    )


def _json_document(text: str, source: str) -> Any:
    """A JSON value, or the events of a JSON-lines chunk capture."""
    try:
        return json_text.loads(text)
    except json.JSONDecodeError as error:
        chunks = _json_lines(text)
        if chunks is not None:
            return chunks
        raise LintInputError(
            f"{source}: not valid JSON ({error.msg}, line {error.lineno})", hint=ACCEPTED_FORMATS
        ) from None
    except RecursionError:
        raise LintInputError(f"{source}: JSON nested deeper than toolwire can read") from None


def _json_lines(text: str) -> list[dict[str, Any]] | None:
    """Stream events from one chunk object per line; None when the text is not that.

    An Anthropic chunk names its event in ``type`` (the SSE event name is the
    same); an OpenAI chunk has no event name. A capture of chunk objects holds
    no transport, so OpenAI's ``data: [DONE]`` terminator, which is SSE text
    and not a chunk, is supplied after the last chunk rather than reported
    missing.
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    events: list[dict[str, Any]] = []
    chunk: Any = None
    for line in lines:
        try:
            chunk = json_text.loads(line)
        except (json.JSONDecodeError, RecursionError):
            return None
        if not isinstance(chunk, dict):
            return None
        kind = chunk.get("type")
        events.append({"event": kind if isinstance(kind, str) else None, "data": chunk})
    if "choices" in chunk:  # the last chunk is OpenAI's
        events.append({"event": None, "data": "[DONE]"})
    return events


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
        if "messages" in value:
            return "request"
        if "choices" in value or value.get("type") == "message":
            return "response"
    raise LintInputError(
        f"{source}: cannot tell whether this JSON is a request or a response",
        hint='a request has "messages"; a response has "choices" or "type": "message"',
    )


def detect_dialect(kind: PayloadKind, value: Any) -> str:
    """The dialect a payload is written in, from the fields only one dialect uses."""
    return lint_dialect.from_body(kind, value).dialect


def _lint_payload(
    kind: PayloadKind, value: Any, source: str, dialect: str | None, profile: str | None
) -> LintReport:
    choice = lint_dialect.given(dialect) if dialect else lint_dialect.from_body(kind, value)
    under_test = _parse(choice.dialect, kind, value, profile, source)
    return LintReport(_judge(under_test, source), [(source, choice)])


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


def _violations(found: Sequence[Finding] | None, source: str, level: str) -> list[LintViolation]:
    # Redacted: a message may quote the payload, and a cassette may hold a key.
    return [LintViolation(source, f.code, level, redact(f.message), f.path) for f in found or ()]


def _lint_cassette(
    document: Mapping[str, Any], source: str, dialect: str | None, profile: str | None
) -> LintReport:
    found = document.get("toolwire")
    meta: Mapping[str, Any] = found if isinstance(found, dict) else {}
    said = meta.get("dialect")
    if said is not None and (not isinstance(said, str) or said not in DIALECTS):
        raise LintInputError(
            f"{source}: its toolwire: block names an unknown dialect {_glimpse(said)}",
            hint=f"use one of: {', '.join(DIALECTS)}",
        )
    said_profile = meta.get("profile")
    if profile is None and said_profile is not None:
        if not isinstance(said_profile, str) or said_profile not in PROFILES:
            # An unknown profile judges no rule: a pass about nothing.
            raise LintInputError(
                f"{source}: its toolwire: block names an unknown profile {_glimpse(said_profile)}",
                hint=f"use one of: {', '.join(PROFILES)}",
            )
        profile = said_profile
    report = LintReport([], [])
    exchanges: list[Exchange] = []
    for index, interaction in enumerate(document["interactions"]):
        label = f"{source}, interaction {index + 1}"
        request_raw = interaction.get("request") if isinstance(interaction, dict) else None
        if not isinstance(request_raw, dict):
            raise LintInputError(
                f"{label}: not a recorded exchange",
                hint="each interaction of a vcrpy cassette has a request and a response mapping",
            )
        request_value = _json_body(request_raw.get("body"), f"{label} request")
        answer = _recorded_answer(interaction, label)
        if dialect:
            choice = lint_dialect.given(dialect)
        elif said is not None:
            choice = lint_dialect.from_metadata(said)
        else:
            kind, value = answer or ("response", None)
            choice = lint_dialect.from_interaction(request_raw, request_value, kind, value)
        report.dialects.append((label, choice))
        request = _parse(choice.dialect, "request", request_value, profile, f"{label} request")
        report.violations.extend(_judge(request, f"{label} request"))
        response = None
        if answer is not None:
            kind, value = answer
            where = f"{label} {kind}"
            response = _parse(choice.dialect, kind, value, profile, where, request.tools)
            report.violations.extend(_judge(response, response.label))
        exchanges.append(Exchange(index, request, response))
    if len(exchanges) > 1:
        for code, check in REPLAY_CHECKS.items():
            rule = RULES_BY_CODE[code]
            level = rule.level_for(exchanges[0].request.profile)
            if level is not None:
                report.violations.extend(_violations(check(exchanges), source, level))
    return report


def _recorded_answer(interaction: Mapping[str, Any], label: str) -> tuple[PayloadKind, Any] | None:
    """The response's kind and wire value; None for an error answer or no body.

    A part of unexpected shape is one line naming it, never skipped: a
    response that is not judged must not read as a clean one."""
    where = f"{label} response"
    response = _part(interaction.get("response"), where, "a response mapping")
    status = response.get("status")
    code = status.get("code", 200) if isinstance(status, dict) else status
    if code is None:
        code = 200
    if type(code) is not int:
        raise LintInputError(
            f"{where}: status {_glimpse(status)} is not an HTTP status",
            hint="write status: {code: 200, message: OK}",
        )
    if not 200 <= code < 300:
        return None  # an error body documents the API's answer to a broken request
    body = response.get("body")
    text = body.get("string") if isinstance(body, dict) else body  # a plain string is the body
    if not isinstance(text, str):
        return None
    found = _part(response.get("headers"), f"{where} headers", "a mapping of name to values")
    headers = {str(k).lower(): v for k, v in found.items()}
    types = headers.get("content-type", [])
    content_type = " ".join(map(str, types if isinstance(types, list) else [types]))
    if "text/event-stream" in content_type:
        return "stream", events_to_wire(parse_sse(text))
    return "response", _json_body(text, where)


def _part(value: Any, where: str, what: str) -> Mapping[str, Any]:
    """A mapping part of a cassette (absent: empty), or one line saying what was found."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise LintInputError(
        f"{where}: expected {what}, found {_glimpse(value)}",
        hint="a vcrpy cassette's interactions are {request: {body}, response: "
        "{status: {code}, headers, body: {string}}}",
    )


def _glimpse(value: Any) -> str:
    """``int 1``, ``str 'OK'``, ``null``: the type and the start of the value."""
    if value is None:
        return "null"
    try:
        shown = reprlib.repr(value)
    except ValueError:  # an integer past Python's digit limit
        shown = "(too long to show)"
    return f"{type(value).__name__} {shown}"


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
