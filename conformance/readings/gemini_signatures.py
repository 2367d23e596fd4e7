"""Gemini thought signatures: equal bytes, and when Gemini requires them back.

A ``thoughtSignature`` is bytes written in base64 on the wire. Gemini sends
the standard alphabet, and clients send the same bytes back in another
spelling (google-genai re-encodes them URL-safe: pydantic-ai's recorded
Gemini traffic shows ``+``/``/`` coming back as ``-``/``_``, and the API
accepted it; proto3 JSON reads either alphabet, with or without padding:
https://protobuf.dev/programming-guides/json/). So two signatures are the same
when they decode to the same bytes.

Gemini 3 refuses (HTTP 400) a request whose current-turn function calls lack
the signature their response carried; for Gemini 2.5 sending it back is
advised, not checked (https://ai.google.dev/gemini-api/docs/thought-signatures).
``requires_signatures`` tells the two apart from a model name.
"""

from __future__ import annotations

import base64
import binascii
import re

_GEMINI_MAJOR = re.compile(r"gemini-(\d+)")


def signature_bytes(value: str) -> bytes | None:
    """The bytes of a base64 signature in either alphabet; None when it is not base64."""
    text = value.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def same_signature(expected: str | None, actual: str | None) -> bool:
    if expected is None or actual is None:
        return expected == actual
    if expected == actual:
        return True
    left, right = signature_bytes(expected), signature_bytes(actual)
    return left is not None and left == right


def requires_signatures(model: str | None) -> bool:
    """Gemini 3 and later check function-call signatures; the model name says which."""
    match = _GEMINI_MAJOR.search(model or "")
    return match is not None and int(match.group(1)) >= 3
