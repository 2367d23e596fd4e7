"""Finding credentials in a cassette before anyone commits it.

Two checks: headers whose *name* marks a credential (refused whatever their
value), and key-like strings anywhere in the file. Findings say where the
secret is and show only a masked form (first four characters and the
length), never the secret itself.

The patterns are anchored so that the long base64 of thinking signatures and
``redacted_thinking`` data, and ids such as ``call_…``, ``toolu_…``,
``chatcmpl-…`` or ``msg_…``, do not match: a key must start at a token
boundary and contain a digit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from harness.corpus.vocabulary import FORBIDDEN_HEADERS

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
    (
        "API key query parameter",
        re.compile(r"(?i)[?&](?:api[_-]?key|x-api-key)=(?P<secret>[^&#\s\"'<>\\]+)"),
    ),
)

# A query-parameter value is a secret whatever it looks like; the others must
# look like a random token (a digit among letters), so placeholders such as
# `sk-your-key-here-xxxxxxxxxxxx` or `Bearer YOUR_API_KEY_HERE` pass.
_ALWAYS_SECRET = {"API key query parameter"}
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


def find_key_like(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, secret, offset) for every key-like string in ``text``, in text order."""
    found: list[tuple[str, str, int]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            secret = match.group("secret")
            if kind not in _ALWAYS_SECRET and not _token_like(secret):
                continue
            start, end = match.span("secret")
            # `Bearer sk-...` would match twice: report the key once.
            if any(start < other_end and other_start < end for other_start, other_end in taken):
                continue
            taken.append((start, end))
            found.append((kind, secret, start))
    yield from sorted(found, key=lambda item: item[2])


def _token_like(value: str) -> bool:
    return bool(_DIGIT.search(value) and _LETTER.search(value))


def redact(text: str) -> str:
    """``text`` with every key-like string replaced by its masked form."""
    for _kind, secret, _start in list(find_key_like(text)):
        text = text.replace(secret, mask(secret))
    return text


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
                if name.lower() in FORBIDDEN_HEADERS:
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
        for kind, secret, _start in find_key_like(value):
            if _covered(secret, header_values, seen):
                continue
            seen.add(secret)
            findings.append(SecretFinding(source, where, kind, mask(secret)))
    return findings


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
