"""Scrubbing credentials out of an HTTP exchange before anything is written.

The scrubber is a superset of the validator (``harness.corpus.secrets``): it
removes every header the validator forbids (and a few more credential
headers), every key-like query parameter, and replaces with ``REDACTED``
every string the validator calls key-like, in bodies (decoded JSON values,
stream events, raw text), URIs and the values of the headers it keeps. So a
scrubbed cassette always validates; tests feed every pattern the validator
knows through it.

Callers may name extra secrets (the API key a recording used): they are
replaced wherever they occur, even when they do not look like a key, once
they are long enough not to collide with ordinary text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness.corpus.secrets import find_key_like
from harness.corpus.vocabulary import FORBIDDEN_HEADERS

PLACEHOLDER = "REDACTED"
# The kind harness.corpus.secrets gives a key-like query parameter in text.
QUERY_PARAMETER_KIND = "API key query parameter"

# Headers removed whatever their value: the validator's list plus other
# credential carriers seen in front of LLM APIs (proxies, cloud gateways).
SCRUBBED_HEADERS: frozenset[str] = FORBIDDEN_HEADERS | frozenset(
    {
        "proxy-authorization",
        "x-auth-token",
        "x-access-token",
        "x-amz-security-token",
        "x-goog-user-project",
        "x-openai-organization",
        "helicone-auth",
        "cf-access-client-secret",
    }
)

# Query parameters that carry a credential (Google uses `?key=`, Azure
# `api-key`); they are removed, as vcrpy's filter_query_parameters does.
SECRET_QUERY_PARAMETERS: frozenset[str] = frozenset(
    {
        "api_key",
        "api-key",
        "apikey",
        "x-api-key",
        "key",
        "access_token",
        "token",
        "auth",
        "client_secret",
        "sig",
        "signature",
    }
)

# JSON object keys (compared lower-case, without `-` and `_`) whose value is
# a credential whatever it looks like. Not `token`: logprobs use it for text.
_SECRET_FIELDS: frozenset[str] = frozenset(
    {
        "apikey",
        "xapikey",
        "accesstoken",
        "refreshtoken",
        "idtoken",
        "authtoken",
        "clientsecret",
        "password",
        "authorization",
        "secretkey",
        "awssecretaccesskey",
        "sessiontoken",
    }
)

# Account identifiers the validator does not refuse but a recording should
# not carry: OpenAI organisation and project ids.
_ACCOUNT_IDS = re.compile(r"(?<![A-Za-z0-9_-])(?:org-[A-Za-z0-9]{16,}|proj_[A-Za-z0-9]{16,})")
# An extra secret shorter than this is only removed from headers: replacing a
# short value everywhere would corrupt ordinary text.
MIN_EXTRA_SECRET = 8
_MAX_PASSES = 5


@dataclass
class ScrubLog:
    """What was removed (never the values): for the user's summary."""

    headers: list[str] = field(default_factory=list)
    query_parameters: list[str] = field(default_factory=list)
    replaced: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str, times: int = 1) -> None:
        self.replaced[kind] = self.replaced.get(kind, 0) + times

    def summary(self, counts: bool = True) -> str:
        """``counts=False`` when the same data was scrubbed several times
        (vcrpy runs its request hook again to match requests)."""
        parts = []
        if self.headers:
            parts.append(f"removed headers: {', '.join(sorted(set(self.headers)))}")
        if self.query_parameters:
            names = ", ".join(sorted(set(self.query_parameters)))
            parts.append(f"removed query parameters: {names}")
        if self.replaced:
            found = ", ".join(
                f"{kind} x{n}" if counts else kind for kind, n in sorted(self.replaced.items())
            )
            parts.append(f"replaced with {PLACEHOLDER}: {found}")
        return "; ".join(parts) or "nothing to scrub"


@dataclass(frozen=True)
class Scrubber:
    """Scrubs one exchange's parts; ``extra`` are known secret values."""

    extra: tuple[str, ...] = ()
    log: ScrubLog = field(default_factory=ScrubLog)

    @classmethod
    def with_secrets(cls, secrets: Iterable[str | None]) -> Scrubber:
        return cls(tuple(s for s in secrets if s))

    # --- headers and URIs --------------------------------------------------

    def headers(self, headers: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
        """Credential headers removed; other values scrubbed as text."""
        kept: dict[str, list[str]] = {}
        for name, values in headers.items():
            if is_secret_header(name):
                self.log.headers.append(name.lower())
                continue
            kept[name] = [self.text(str(value)) for value in values]
        return kept

    def uri(self, uri: str) -> str:
        """Key-like query parameters removed; the rest scrubbed as text."""
        parts = urlsplit(uri)
        if parts.query:
            pairs = parse_qsl(parts.query, keep_blank_values=True)
            kept = []
            for name, value in pairs:
                if name.lower() in SECRET_QUERY_PARAMETERS:
                    self.log.query_parameters.append(name)
                else:
                    kept.append((name, value))
            if len(kept) != len(pairs):
                parts = parts._replace(query=urlencode(kept))
                uri = urlunsplit(parts)
        return self.text(uri)

    # --- bodies --------------------------------------------------------------

    def body(self, text: str, content_type: str | None = None) -> str:
        """A request or response body: JSON values, stream events, then raw text."""
        kind = (content_type or "").split(";", 1)[0].strip().lower()
        if kind == "text/event-stream" or _looks_like_sse(text):
            return self.text(self._stream(text))
        stripped = text.lstrip()
        if stripped.startswith(("{", "[")):
            text = self._json_text(text)
        return self.text(text)

    def _json_text(self, text: str) -> str:
        try:
            value = json.loads(text)
        except ValueError:
            return text
        scrubbed = self.json_value(value)
        if scrubbed == value:
            return text
        return json.dumps(scrubbed, ensure_ascii=False)

    def _stream(self, text: str) -> str:
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if not line.startswith("data:"):
                continue
            payload = line[5:].strip()
            if payload.startswith(("{", "[")):
                scrubbed = self._json_text(payload)
                if scrubbed != payload:
                    lines[index] = f"data: {scrubbed}"
        return "\n".join(lines)

    def json_value(self, value: Any) -> Any:
        """A parsed JSON value with credential fields and key-like strings replaced."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json_value(item) for item in value]
        if isinstance(value, dict):
            result: dict[str, Any] = {}
            for key, item in value.items():
                if _is_secret_field(key) and isinstance(item, str) and item:
                    self.log.count(f"field {key!r}")
                    result[self.text(key)] = PLACEHOLDER
                else:
                    result[self.text(key)] = self.json_value(item)
            return result
        return value

    # --- text ----------------------------------------------------------------

    def text(self, text: str) -> str:
        """Every key-like string, account id and known secret replaced."""
        for secret in self.extra:
            if len(secret) >= MIN_EXTRA_SECRET and secret in text:
                self.log.count("the recording's API key", text.count(secret))
                text = text.replace(secret, PLACEHOLDER)
        for _attempt in range(_MAX_PASSES):
            found = list(find_key_like(text))
            if not found:
                break
            # Replace from the end so earlier offsets stay valid.
            for kind, secret, start in sorted(found, key=lambda item: -item[2]):
                self.log.count(kind)
                # A query parameter is a secret whatever its value, so
                # `api_key=REDACTED` would still be refused: empty it instead.
                replacement = "" if kind == QUERY_PARAMETER_KIND else PLACEHOLDER
                text = text[:start] + replacement + text[start + len(secret) :]
        text, replaced = _ACCOUNT_IDS.subn(PLACEHOLDER, text)
        if replaced:
            self.log.count("organisation or project id", replaced)
        return text


def is_secret_header(name: str) -> bool:
    return name.lower() in SCRUBBED_HEADERS


def _is_secret_field(key: str) -> bool:
    return key.lower().replace("-", "").replace("_", "") in _SECRET_FIELDS


def _looks_like_sse(text: str) -> bool:
    head = text.lstrip()[:200]
    return head.startswith(("data:", "event:", ": ")) and "\n" in text
