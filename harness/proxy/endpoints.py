"""Which endpoint a request path names, and whether the request asks for a stream.

Both matchers and the answer by position compare endpoints, not raw paths:
providers and gateways put the same API under different prefixes, and Gemini
writes the model and the stream choice into the path. Kept apart from
``matching.py`` because the adapter and the conversation key need it too.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from toolwire.harness.model import GEMINI

# A version segment (``/v1/``, z.ai's ``/api/paas/v4/``, Gemini's ``/v1beta/``): paths
# compare from after the last one.
_VERSION_SEGMENT = re.compile(r"/v[0-9]+(?:(?:alpha|beta)[0-9]*)?/")


# A Gemini method path: the model and the stream choice are in it.
_GEMINI_METHOD = re.compile(r"/models/[^/:]+:(stream)?[gG]enerateContent$")
GEMINI_ENDPOINT = "/models/*:generateContent"
# Gemini's stream without ``alt=sse`` is one JSON array, not an event stream
# (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
JSON_ARRAY_STREAM = "a JSON array (streamGenerateContent without alt=sse)"


def endpoint_of(path: str) -> str:
    """``/v1/chat/completions``, ``/chat/completions`` and z.ai's
    ``/api/paas/v4/chat/completions`` name the same endpoint; so do Gemini's
    ``/v1beta/models/{any model}:generateContent`` and ``:streamGenerateContent``
    (the stream choice is ``stream_choice``'s)."""
    route = urlsplit(path).path.rstrip("/") or "/"
    if _GEMINI_METHOD.search(route):
        return GEMINI_ENDPOINT
    markers = list(_VERSION_SEGMENT.finditer(route))
    return route[markers[-1].end() - 1 :] if markers else route


def stream_choice(dialect: str, path: str, body_stream: bool | None) -> bool | str:
    """Whether a request asks for a stream: Gemini says it in its path
    (``:streamGenerateContent``, as an event stream with ``alt=sse``, else as
    ``JSON_ARRAY_STREAM``), the other dialects in their body."""
    if dialect != GEMINI:
        return bool(body_stream)
    parts = urlsplit(path)
    found = _GEMINI_METHOD.search(parts.path.rstrip("/"))
    if found is None or found.group(1) is None:
        return False
    sse = ("alt", "sse") in parse_qsl(parts.query, keep_blank_values=True)
    return True if sse else JSON_ARRAY_STREAM
