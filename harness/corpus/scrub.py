"""Scrubbing credentials out of an HTTP exchange before anything is written.

The scrubber is a superset of the validator (``toolwire.harness.corpus.secrets``): it
removes every header the validator forbids (and a few more credential
headers), every key-like query parameter, and replaces with ``REDACTED``
every string the validator calls key-like, in bodies (decoded JSON values,
stream events, raw text), URIs and the values of the headers it keeps. So a
scrubbed cassette always validates; tests feed every pattern the validator
knows through it.

Callers may name extra secrets (the API key a recording used): they are
replaced wherever they occur, even when they do not look like a key, once
they are long enough not to collide with ordinary text, and so is any piece
of them of ``MIN_EXTRA_SECRET`` characters or more (a model that repeats part
of the key). Escaped forms count too (``sk\\u002dant…``): text is also
scanned with its JSON escapes decoded.

A stream is scrubbed event by event and then whole: each field it streams
(text, a tool call's arguments, thinking) is joined across the events and
scanned again, so a key streamed a few characters per event is replaced too
(``toolwire.harness.corpus.streamtext``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from toolwire.harness import json_text
from toolwire.harness.corpus.secrets import decoded_views, find_secrets, is_secret_name, merge_spans
from toolwire.harness.corpus.streamtext import (
    joined_fields,
    read_events,
    replace_span,
    rewrite_events,
)
from toolwire.harness.corpus.vocabulary import FORBIDDEN_HEADERS

PLACEHOLDER = "REDACTED"
# The kind toolwire.harness.corpus.secrets gives a key-like query parameter in text.
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
# Any other whose name says key, token, secret or auth goes too
# (``is_secret_name``), and `code` (Azure Functions).
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
# short value everywhere would corrupt ordinary text. Pieces of a longer one
# this long are removed too.
MIN_EXTRA_SECRET = 8
KNOWN_SECRET_KIND = "the recording's API key"
# The public start of a key (its kind, not a secret): pieces of the key that
# lie wholly in it are left alone, so that text naming "sk-proj-" survives.
_PUBLIC_PREFIX = re.compile(r"^(?:Bearer |sk-(?:ant-(?:api|admin)[0-9]*-|proj-|svcacct-|admin-)?)")
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
        """Credentials (``user:password@``) and key-like query parameters
        removed; the rest scrubbed as text."""
        parts = urlsplit(uri)
        if "@" in parts.netloc:
            self.log.count("URL credentials")
            parts = parts._replace(netloc=parts.netloc.rpartition("@")[2])
            uri = urlunsplit(parts)
        if parts.query:
            pairs = parse_qsl(parts.query, keep_blank_values=True)
            kept = []
            for name, value in pairs:
                if is_secret_query_parameter(name):
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
            value = json_text.loads(text)
        except ValueError:
            return text
        scrubbed = self.json_value(value)
        if scrubbed == value:
            return text
        return json.dumps(scrubbed, ensure_ascii=False)

    def _stream(self, text: str) -> str:
        """Each event's JSON, then each streamed field joined across events."""
        lines = text.split("\n")
        events = read_events(lines)
        changed: set[int] = set()
        for number, event in enumerate(events):
            if event.value is None:
                continue
            scrubbed = self.json_value(event.value)
            if scrubbed != event.value:
                event.value = scrubbed
                changed.add(number)
        for joined in joined_fields(events):
            # From the end, so that the earlier offsets stay valid.
            for kind, start, end in reversed(self._spans(joined.text)):
                self.log.count(kind)
                changed |= replace_span(joined, events, start, end, _replacement(kind))
        if not changed:
            return text
        rewrite_events(lines, events, changed)
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
        """Every key-like string, account id and known secret (or a long piece
        of one) replaced, escaped forms included."""
        for _attempt in range(_MAX_PASSES):
            found = self._spans(text)
            if not found:
                break
            # Replace from the end so earlier offsets stay valid.
            for kind, start, end in reversed(found):
                self.log.count(kind)
                text = text[:start] + _replacement(kind) + text[end:]
        text, replaced = _ACCOUNT_IDS.subn(PLACEHOLDER, text)
        if replaced:
            self.log.count("organisation or project id", replaced)
        return text

    def _spans(self, text: str) -> list[tuple[str, int, int]]:
        spans = find_secrets(text)
        for secret in self.extra:
            found = known_spans(text, secret)
            spans.extend((KNOWN_SECRET_KIND, start, end) for start, end in found)
        return merge_spans(spans)


def known_spans(text: str, secret: str) -> list[tuple[int, int]]:
    """Where ``secret``, or a piece of it of ``MIN_EXTRA_SECRET`` characters or
    more, occurs in ``text`` (JSON-escaped too), as (start, end) in ``text``."""
    size = MIN_EXTRA_SECRET
    pieces = _pieces(secret)
    if not pieces or len(text) < size:
        return []
    spans: list[tuple[int, int]] = []
    for at, end in _piece_spans(text, pieces):
        spans.append((at, end))
    for view in decoded_views(text):
        for at, end in _piece_spans(view.text, pieces):
            spans.append((view.original(at), view.original(end)))
    return [(start, end) for _kind, start, end in merge_spans([("", *s) for s in spans])]


@lru_cache(maxsize=16)
def _pieces(secret: str) -> frozenset[str]:
    """Every piece of ``secret`` of ``MIN_EXTRA_SECRET`` characters that does
    not lie wholly in its public prefix."""
    size = MIN_EXTRA_SECRET
    if len(secret) < size:
        return frozenset()
    public = _PUBLIC_PREFIX.match(secret)
    first = max(0, (public.end() if public else 0) - size + 1)
    return frozenset(secret[at : at + size] for at in range(first, len(secret) - size + 1))


def _piece_spans(text: str, pieces: frozenset[str]) -> Iterator[tuple[int, int]]:
    size = MIN_EXTRA_SECRET
    windows = len(text) - size + 1
    if windows <= 4 * len(pieces):  # short text: look at each window once
        for at in range(max(windows, 0)):
            if text[at : at + size] in pieces:
                yield at, at + size
        return
    for piece in pieces:  # long text: one fast substring search per piece
        at = text.find(piece)
        while at != -1:
            yield at, at + size
            at = text.find(piece, at + 1)


def _replacement(kind: str) -> str:
    # A query parameter is a secret whatever its value, so `api_key=REDACTED`
    # would still be refused: empty it instead.
    return "" if kind == QUERY_PARAMETER_KIND else PLACEHOLDER


def is_secret_header(name: str) -> bool:
    """A credential header: a known one, or one whose name says key, token,
    secret or auth (``Ocp-Apim-Subscription-Key``, ``x-litellm-api-key``)."""
    return name.lower() in SCRUBBED_HEADERS or is_secret_name(name)


def is_secret_query_parameter(name: str) -> bool:
    return name.lower() in SECRET_QUERY_PARAMETERS or is_secret_name(name, query=True)


def _is_secret_field(key: str) -> bool:
    return key.lower().replace("-", "").replace("_", "") in _SECRET_FIELDS


def _looks_like_sse(text: str) -> bool:
    head = text.lstrip()[:200]
    return head.startswith(("data:", "event:", ": ")) and "\n" in text
