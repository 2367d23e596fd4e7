"""Redaction: the one function every message passes through before it leaves toolwire.

Whatever toolwire stores or prints that it did not write itself (what an
adapter raised, wrote on stderr or answered with ``error``, an import error,
an upstream's error body, a finding quoting a payload) goes through
``redact`` first: the results JSON, every report and the terminal are built
from redacted text. It masks (first four characters and the length, as
``toolwire.harness.corpus.secrets.mask``):

- every key-like string the corpus validator knows, JSON-escaped forms too
  (``toolwire.harness.corpus.secrets.find_secrets``);
- the value after a header, query parameter or variable whose name says
  key, token, secret or auth (``x-api-key: ...``, ``?code=...``,
  ``OPENAI_API_KEY=...``) when it looks like a token;
- the secrets toolwire knows: those passed in (the API key of `record` or
  `probe`, and pieces of it of 8 characters or more), and the values of the
  environment's credential variables (``*_API_KEY``, ``*_TOKEN``, ...), whose
  shape no pattern can know (an Azure key is 32 hexadecimal digits). Those
  are matched whole: pieces of a path in ``SSH_AUTH_SOCK`` are ordinary text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache

from toolwire.harness.corpus.scrub import known_spans
from toolwire.harness.corpus.secrets import find_secrets, is_secret_name, mask, merge_spans

# An environment value shorter than this is not treated as a secret.
MIN_ENVIRONMENT_SECRET = 8
# `name: value`, `name=value`, `"name": "value"`: a credential by its name.
_NAMED_VALUE = re.compile(
    r"(?<![A-Za-z0-9_.-])(?P<name>[A-Za-z][A-Za-z0-9_.-]{0,63})[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<scheme>(?i:bearer|basic|token)[ \t]+)?(?P<value>[^\s\"',;&<>()\[\]{}\\]{8,})"
)
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")
_KNOWN = "known secret"


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every secret masked (see the module docstring)."""
    if not text:
        return text
    spans = find_secrets(text)
    for secret in secrets:
        if secret:
            spans.extend((_KNOWN, start, end) for start, end in known_spans(text, secret))
    for secret in _environment_secrets():
        at = text.find(secret)
        while at != -1:
            spans.append((_KNOWN, at, at + len(secret)))
            at = text.find(secret, at + 1)
    for match in _NAMED_VALUE.finditer(text):
        value = match.group("value")
        if value.upper().startswith("REDACTED") or "…(" in value:
            continue  # already masked
        if not _credential_name(match.group("name")):
            continue
        if match.group("scheme") or (_DIGIT.search(value) and _LETTER.search(value)):
            spans.append((_KNOWN, *match.span("value")))
    for _kind, start, end in reversed(merge_spans(spans)):
        text = text[:start] + mask(text[start:end]) + text[end:]
    return text


def _credential_name(name: str) -> bool:
    # Thinking signatures are quoted in findings as `signature: ...`: not a
    # credential in text (a `sig=` query parameter is found by its pattern).
    last = re.split(r"[^a-z0-9]+", name.lower())[-1]
    return last not in ("signature", "sig") and is_secret_name(name, query=True)


def _environment_secrets() -> tuple[str, ...]:
    # The mapping under os.environ (bytes on POSIX) is copied in C: the
    # cheap key of a cache, since every message is redacted.
    data = getattr(os.environ, "_data", None)
    items = tuple(data.items()) if isinstance(data, dict) else tuple(os.environ.items())
    return _secrets_of(items)


@lru_cache(maxsize=4)
def _secrets_of(environment: tuple[tuple[str | bytes, str | bytes], ...]) -> tuple[str, ...]:
    found = []
    for raw_name, raw_value in environment:
        name, value = os.fsdecode(raw_name), os.fsdecode(raw_value)
        if len(value) >= MIN_ENVIRONMENT_SECRET and is_secret_name(name):
            found.append(value)
    return tuple(found)
