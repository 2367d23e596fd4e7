"""``toolwire lint``: protocol checks on payloads, with no adapter.

Takes a request, a response, a stream (``data:`` lines, or a JSON list of
events) or a whole cassette, in any dialect (detected, or given). Applies
every payload rule; on a multi-request cassette also the replay rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from conformance.catalogue import RULES_BY_CODE
from conformance.context import Exchange, PayloadUnderTest
from conformance.findings import Finding
from conformance.profiles import DEFAULT_PROFILE, PROFILES
from conformance.registry import PAYLOAD_CHECKS, REPLAY_CHECKS
from harness.engine.payloads import events_to_wire, parse_payload
from harness.errors import ToolwireError
from harness.model import DIALECTS, PayloadKind
from harness.sse import parse_sse


class LintInputError(ToolwireError):
    exit_code = 2


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


def lint_text(
    text: str, source: str, dialect: str | None = None, profile: str | None = None
) -> list[LintViolation]:
    """Lint one file's contents; raise LintInputError when it is not a payload."""
    _check_choices(dialect, profile)
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise LintInputError(
                f"{source}: not valid JSON ({error.msg}, line {error.lineno})"
            ) from None
        except RecursionError:
            raise LintInputError(f"{source}: JSON nested deeper than toolwire can read") from None
        kind = "stream" if isinstance(value, list) else _kind_of(value, source)
        return _lint_payload(kind, value, source, dialect, profile)
    if any(line.startswith("data:") for line in stripped.splitlines()[:20]):
        events = events_to_wire(parse_sse(text))
        return _lint_payload("stream", events, source, dialect, profile)
    try:
        document = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        document = None
    if isinstance(document, dict) and isinstance(document.get("interactions"), list):
        return _lint_cassette(document, source, dialect, profile)
    raise LintInputError(
        f"{source}: not a request, response, stream or cassette",
        hint="give a JSON body, an event stream (data: lines) or a vcrpy cassette",
    )


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
    if kind == "stream":
        datas = [e.get("data") for e in value if isinstance(e, dict)]
        if any(isinstance(d, dict) and d.get("type") == "message_start" for d in datas):
            return "anthropic-messages"
        return "deepseek-chat" if "reasoning_content" in json.dumps(datas) else "openai-chat"
    if kind == "response":
        if isinstance(value, dict) and value.get("type") == "message":
            return "anthropic-messages"
        found_choices = value.get("choices") if isinstance(value, dict) else None
        choices: list[Any] = found_choices if isinstance(found_choices, list) else []
        replies = [c.get("message") or {} for c in choices if isinstance(c, dict)]
        reasoning = any(isinstance(m, dict) and "reasoning_content" in m for m in replies)
        return "deepseek-chat" if reasoning else "openai-chat"
    found = value.get("messages") if isinstance(value, dict) else None
    messages: list[Any] = found if isinstance(found, list) else []
    if "system" in value or any(_has_anthropic_blocks(m) for m in messages):
        return "anthropic-messages"
    if any(isinstance(m, dict) and "reasoning_content" in m for m in messages):
        return "deepseek-chat"
    return "openai-chat"


def _has_anthropic_blocks(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return False
    kinds = {"tool_use", "tool_result", "thinking", "redacted_thinking"}
    return any(isinstance(b, dict) and b.get("type") in kinds for b in content)


def _lint_payload(
    kind: PayloadKind, value: Any, source: str, dialect: str | None, profile: str | None
) -> list[LintViolation]:
    dialect = dialect or detect_dialect(kind, value)
    under_test = _parse(dialect, kind, value, profile, source)
    return _judge(under_test, source)


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
    return [LintViolation(source, f.code, level, f.message, f.path) for f in found or ()]


def _lint_cassette(
    document: Mapping[str, Any], source: str, dialect: str | None, profile: str | None
) -> list[LintViolation]:
    found = document.get("toolwire")
    meta: Mapping[str, Any] = found if isinstance(found, dict) else {}
    dialect = dialect or _meta_choice(meta, "dialect", DIALECTS, source)
    profile = profile or _meta_choice(meta, "profile", tuple(PROFILES), source)
    violations: list[LintViolation] = []
    exchanges: list[Exchange] = []
    for index, item in enumerate(document["interactions"]):
        label = f"{source}, interaction {index + 1}"
        interaction = _mapping(item, label, "an interaction (request and response)")
        sent = _mapping(interaction.get("request"), f"{label} request", "a request mapping")
        request_value = _json_body(sent.get("body"), f"{label} request")
        payload_dialect = dialect or detect_dialect("request", request_value)
        request = _parse(payload_dialect, "request", request_value, profile, f"{label} request")
        violations.extend(_judge(request, f"{label} request"))
        response = _cassette_response(interaction, payload_dialect, profile, request, label)
        if response is not None:
            violations.extend(_judge(response, response.label))
        exchanges.append(Exchange(index, request, response))
    if len(exchanges) > 1:
        for code, check in REPLAY_CHECKS.items():
            rule = RULES_BY_CODE[code]
            level = rule.level_for(exchanges[0].request.profile)
            if level is not None:
                violations.extend(_violations(check(exchanges), source, level))
    return violations


def _cassette_response(
    interaction: Mapping[str, Any],
    dialect: str,
    profile: str | None,
    request: PayloadUnderTest,
    label: str,
) -> PayloadUnderTest | None:
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
        body = _decoded(body, headers, f"{label} response")
    if not isinstance(body, str):
        # Never skipped in silence: a response not linted must not read as clean.
        raise LintInputError(
            f"{label} response: body.string is {type(body).__name__}, not text",
            hint="store the body as text, as `toolwire corpus add` does",
        )
    found_type = headers.get("content-type") or []
    content_type = " ".join(map(str, found_type if isinstance(found_type, list) else [found_type]))
    if "text/event-stream" in content_type:
        events = events_to_wire(parse_sse(body))
        return _parse(dialect, "stream", events, profile, f"{label} stream", request.tools)
    value = _json_body(body, f"{label} response")
    return _parse(dialect, "response", value, profile, f"{label} response", request.tools)


def _mapping(value: Any, where: str, what: str) -> Mapping[str, Any]:
    """``value`` when it is a mapping; else one line saying what was expected."""
    if isinstance(value, dict):
        return value
    raise LintInputError(
        f"{where}: expected {what}, found {_type_of(value)}",
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


def _type_of(value: Any) -> str:
    """``int 1``, ``str 'OK'``, ``null``: a shape and a glimpse of the value."""
    if value is None:
        return "null"
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def _decoded(body: bytes | bytearray, headers: Mapping[str, Any], where: str) -> str:
    """A binary (``!!binary``) body decoded as `toolwire corpus add` decodes it."""
    from harness.corpus.foreign import response_body_text
    from harness.corpus.loader import bare_message
    from harness.errors import CorpusError

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
        return json.loads(body)
    except json.JSONDecodeError as error:
        raise LintInputError(f"{where}: body is not JSON ({error.msg})") from None
    except RecursionError:
        raise LintInputError(f"{where}: body nests deeper than toolwire can read") from None
