"""Finding credentials in a cassette before anyone commits it.

Two checks: headers whose *name* marks a credential (refused whatever their
value), and key-like strings anywhere in the file. Findings say where the
secret is and show only a masked form (first four characters and the
length), never the secret itself.

The patterns are anchored so that the long base64 of thinking signatures and
``redacted_thinking`` data, and ids such as ``call_…``, ``toolu_…``,
``chatcmpl-…`` or ``msg_…``, do not match: a key must start at a token
boundary and contain a digit.

JSON escapes hide a key from a pattern (``sk\\u002dant\\u002d…`` in a tool
call's arguments, or in a raw body): ``find_secrets`` also scans the text
with its escapes decoded, up to three levels deep, and maps what it finds
back to the original text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.harness.corpus.streamtext import joined_fields, read_events
from toolwire.harness.corpus.vocabulary import FORBIDDEN_HEADERS

# Not preceded by a key character, or preceded by a JSON escape such as \n
# (a key at the start of a line inside a JSON string).
_KEY_START = r"(?:(?<![A-Za-z0-9_-])|(?<=\\n)|(?<=\\t)|(?<=\\r))"

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # https://docs.anthropic.com/en/api/overview (x-api-key: sk-ant-api03-...)
    ("Anthropic API key", re.compile(_KEY_START + r"(?P<secret>sk-ant-[A-Za-z0-9_-]{20,})")),
    # OpenAI keys: sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...
    ("OpenAI API key", re.compile(_KEY_START + r"(?P<secret>sk-(?!ant-)[A-Za-z0-9_-]{20,})")),
    (
        "bearer token",
        re.compile(r"(?i:\bbearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)(?![A-Za-z0-9._~+/=-])"),
    ),
    (
        "AWS access key id",
        re.compile(r"(?<![A-Za-z0-9])(?P<secret>(?:AKIA|ASIA)[0-9A-Z]{16})(?![A-Za-z0-9])"),
    ),
    ("Google API key", re.compile(r"(?<![A-Za-z0-9_-])(?P<secret>AIza[0-9A-Za-z_-]{35})")),
    # Any parameter whose name says key, token, secret or auth (``is_secret_name``).
    (
        "API key query parameter",
        re.compile(r"[?&](?P<name>[A-Za-z0-9_.~%-]{1,64})=(?P<secret>[^&#\s\"'<>\\]+)"),
    ),
    # https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.1 (user:password@host)
    (
        "URL credentials",
        re.compile(
            r"(?i)(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{0,15}://"
            r"(?P<secret>[^\s/?#@:\"'<>\\]*:[^\s/?#@\"'<>\\]+)@"
        ),
    ),
)

# What each pattern's match must contain.
_NEEDLES: dict[str, tuple[str, ...]] = {
    "Anthropic API key": ("sk-ant-",),
    "OpenAI API key": ("sk-",),
    "bearer token": ("earer", "EARER"),
    "AWS access key id": ("AKIA", "ASIA"),
    "Google API key": ("AIza",),
    "API key query parameter": ("=",),
    "URL credentials": ("://",),
}
_ANY_NEEDLE = re.compile(
    "|".join(re.escape(needle) for needles in _NEEDLES.values() for needle in needles)
)

# A query-parameter value is a secret whatever it looks like; the others must
# look like a random token (a digit among letters), so placeholders such as
# `sk-your-key-here-xxxxxxxxxxxx` or `Bearer YOUR_API_KEY_HERE` pass.
_ALWAYS_SECRET = {"API key query parameter", "URL credentials"}
# Patterns whose match must also carry a credential's name.
_NAMED = {"API key query parameter"}

# Words (split on anything but letters and digits, lower-case) that make a
# header or query parameter a credential: `Ocp-Apim-Subscription-Key`,
# `x-litellm-api-key`, `x-portkey-api-key`, `x-amz-security-token`,
# `helicone-auth`. Not `tokens`: rate-limit headers count tokens.
_SECRET_WORDS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "auth",
        "authorization",
        "password",
        "passwd",
        "credential",
        "credentials",
        "signature",
        "sig",
        "cookie",
    }
)
_SECRET_SUFFIXES = ("apikey", "token", "secret")
# Query parameters that carry a credential without saying so: Azure
# Functions' `?code=` (https://learn.microsoft.com/azure/azure-functions/function-keys-how-to).
_SECRET_QUERY_ONLY = frozenset({"code"})
_WORD_SPLIT = re.compile(r"[^a-z0-9]+")
_PLACEHOLDERS = frozenset({"redacted", "xxx", "***", "<redacted>"})
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class SecretFinding:
    """One credential found. ``location`` is ``line N`` or names the
    interaction and header; ``masked`` is safe to print."""

    source: str
    location: str
    kind: str
    masked: str
    line: int | None = None

    @property
    def message(self) -> str:
        if self.kind == "forbidden header":
            return f"{self.location} is a credential header and is not allowed ({self.masked})"
        return f"{self.kind} {self.masked} at {self.location}"

    @property
    def hint(self) -> str:
        if self.kind == "forbidden header":
            return "delete the header; recordings must filter credential headers"
        return "replace it with a placeholder such as REDACTED and revoke the key if it was real"


def mask(secret: str) -> str:
    """First four characters (only for long values) and the length."""
    shown = secret[:4] if len(secret) >= 12 else ""
    return f"{shown}…({len(secret)} chars)"


def is_secret_name(name: str, query: bool = False) -> bool:
    """Whether a header (or, with ``query``, a query parameter) name says it
    carries a credential: a word of it is key, token, secret, auth, ...
    (case-insensitive). Only for header and parameter names: JSON fields
    such as ``max_tokens`` are judged by their value."""
    lowered = name.strip().lower()
    if query and lowered in _SECRET_QUERY_ONLY:
        return True
    for word in _WORD_SPLIT.split(lowered):
        if word in _SECRET_WORDS or (len(word) > 5 and word.endswith(_SECRET_SUFFIXES)):
            return True
    return False


def find_key_like(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, secret, offset) for every key-like string in ``text``, in text order."""
    if not _ANY_NEEDLE.search(text):
        return  # most strings: one search in C decides
    found: list[tuple[str, str, int]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        if not any(needle in text for needle in _NEEDLES[kind]):
            continue  # a substring search is far cheaper than the pattern
        for match in pattern.finditer(text):
            secret = match.group("secret")
            if kind in _NAMED and not is_secret_name(match.group("name"), query=True):
                continue
            if kind not in _ALWAYS_SECRET and not _token_like(secret):
                continue
            if secret.lower() in _PLACEHOLDERS or secret.lower().endswith(":redacted"):
                continue
            start, end = match.span("secret")
            # `Bearer sk-...` would match twice: report the key once.
            if any(start < other_end and other_start < end for other_start, other_end in taken):
                continue
            taken.append((start, end))
            found.append((kind, secret, start))
    yield from sorted(found, key=lambda item: item[2])


# A JSON string escape: \uXXXX or one of the single-character ones.
_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))')
_SIMPLE_ESCAPES = dict(zip('"\\/bfnrt', '"\\/\b\f\n\r\t', strict=True))
_ESCAPE_LEVELS = 3


@dataclass(frozen=True)
class DecodedView:
    """``text`` with one or more levels of JSON escapes decoded, and the way
    back: ``original(i)`` is where the decoded character ``i`` starts in the
    original text (``len(original)`` past the end)."""

    text: str
    # (decoded offset, original offset) at the start and end of each escape;
    # between two marks the two texts run in step.
    _marks: tuple[tuple[int, int], ...]
    _inner: DecodedView | None = None

    def original(self, index: int) -> int:
        position = index
        if self._marks:
            at = bisect.bisect_right(self._marks, (index, _BIG)) - 1
            if at >= 0:
                decoded, source = self._marks[at]
                position = source + (index - decoded)
        return self._inner.original(position) if self._inner is not None else position


_BIG = 1 << 62


def decoded_views(text: str) -> Iterator[DecodedView]:
    """``text`` with 1, 2, ... levels of JSON escapes decoded (while any are left)."""
    inner: DecodedView | None = None
    current = text
    for _level in range(_ESCAPE_LEVELS):
        if "\\" not in current:
            return
        view = _decode_once(current, inner)
        if view.text == current:
            return
        yield view
        inner, current = view, view.text


def _decode_once(text: str, inner: DecodedView | None) -> DecodedView:
    pieces: list[str] = []
    marks: list[tuple[int, int]] = []
    last = decoded = 0
    for match in _ESCAPE.finditer(text):
        pieces.append(text[last : match.start()])
        decoded += match.start() - last
        code, simple = match.groups()
        marks.append((decoded, match.start()))
        pieces.append(chr(int(code, 16)) if code else _SIMPLE_ESCAPES[simple])
        decoded += 1
        last = match.end()
        marks.append((decoded, last))
    pieces.append(text[last:])
    return DecodedView("".join(pieces), tuple(marks), inner)


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every key-like string in ``text``, also where JSON
    escapes hide it (the span then covers the escaped form); sorted, no overlaps."""
    spans = [(kind, start, start + len(secret)) for kind, secret, start in find_key_like(text)]
    for view in decoded_views(text):
        for kind, secret, start in find_key_like(view.text):
            spans.append((kind, view.original(start), view.original(start + len(secret))))
    return merge_spans(spans)


def merge_spans(spans: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Overlapping spans joined (the first one's kind kept), in text order."""
    merged: list[tuple[str, int, int]] = []
    for kind, start, end in sorted(spans, key=lambda span: (span[1], -span[2])):
        if merged and start < merged[-1][2]:
            last_kind, last_start, last_end = merged[-1]
            merged[-1] = (last_kind, last_start, max(last_end, end))
        else:
            merged.append((kind, start, end))
    return merged


def _token_like(value: str) -> bool:
    return bool(_DIGIT.search(value) and _LETTER.search(value))


def scan_text(text: str, source: str) -> list[SecretFinding]:
    """Key-like strings in the raw file, located by line number."""
    return [finding for finding, _secret in _text_findings(text, source)]


def scan_cassette(source: str, text: str, data: Any) -> list[SecretFinding]:
    """Every secret in a cassette: forbidden headers, key-like strings in the
    raw text, and key-like strings in the parsed bodies and URIs (which catch
    what YAML escaping hides from the text scan). ``data`` is the parsed YAML
    and may have any shape."""
    findings: list[SecretFinding] = []
    header_values: list[str] = []
    parsed_strings: list[tuple[str, str]] = []
    for index, interaction in _interactions(data):
        for side in ("request", "response"):
            part = interaction.get(side)
            if not isinstance(part, Mapping):
                continue
            headers = part.get("headers")
            for name, value in _header_items(headers):
                if name.lower() in FORBIDDEN_HEADERS or is_secret_name(name):
                    where = f"interaction {index + 1} {side} header {name!r}"
                    findings.append(SecretFinding(source, where, "forbidden header", mask(value)))
                    header_values.append(value)
            for what, value in _strings_of(side, part):
                parsed_strings.append((f"interaction {index + 1} {what}", value))

    seen: set[str] = set()
    for finding, secret in _text_findings(text, source):
        if _covered(secret, header_values, seen):
            continue
        seen.add(secret)
        findings.append(finding)
    for where, value in parsed_strings:
        for kind, start, end in find_secrets(value):
            secret = value[start:end]
            if _covered(secret, header_values, seen):
                continue
            seen.add(secret)
            findings.append(SecretFinding(source, where, kind, mask(secret)))
    return findings


def _stream_fields(where: str, body: str) -> Iterator[tuple[str, str]]:
    """Each field a stream body streams, joined across its events (a key
    streamed a few characters per event is in no single one)."""
    if "data:" not in body:
        return
    for joined in joined_fields(read_events(body.split("\n"))):
        path = ".".join(str(part) for part in joined.pieces[0].path)
        yield f"{where}, streamed field {path} joined across events", joined.text


def _text_findings(text: str, source: str) -> Iterator[tuple[SecretFinding, str]]:
    for kind, secret, start in find_key_like(text):
        line = text.count("\n", 0, start) + 1
        yield SecretFinding(source, f"line {line}", kind, mask(secret), line), secret


def _covered(secret: str, header_values: list[str], seen: set[str]) -> bool:
    """Already reported, as the same string or inside a forbidden header."""
    return secret in seen or any(secret in value for value in header_values)


def _interactions(data: Any) -> Iterator[tuple[int, Mapping[str, Any]]]:
    interactions = data.get("interactions") if isinstance(data, Mapping) else None
    if not isinstance(interactions, list):
        return
    for index, interaction in enumerate(interactions):
        if isinstance(interaction, Mapping):
            yield index, interaction


def _header_items(headers: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(headers, Mapping):
        return
    for name, values in headers.items():
        items = values if isinstance(values, list) else [values]
        for value in items:
            yield str(name), "" if value is None else str(value)


def _strings_of(side: str, part: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    if side == "request":
        if isinstance(part.get("uri"), str):
            yield "request uri", part["uri"]
        if isinstance(part.get("body"), str):
            yield "request body", part["body"]
        return
    body = part.get("body")
    if isinstance(body, Mapping) and isinstance(body.get("string"), str):
        yield "response body", body["string"]
        yield from _stream_fields("response body", body["string"])
