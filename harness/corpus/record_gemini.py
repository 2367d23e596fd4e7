"""What `toolwire record` does differently for Gemini.

A Gemini call names its model and whether it streams in the URL
(``{base}/v1beta/models/{model}:generateContent``, or
``:streamGenerateContent?alt=sse``), and authenticates with the
``x-goog-api-key`` header (https://ai.google.dev/api/generate-content,
https://ai.google.dev/gemini-api/docs/api-key). A request file for `record`
names them as the other dialects do, with ``"model"`` and ``"stream": true``
beside the Gemini body; record takes both out of the body it sends (the
recorded request is exactly what reached the API) and builds the URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from toolwire.harness.corpus.detect import gemini_path

API_KEY_HEADER = "x-goog-api-key"
_TOOLWIRE_KEYS = ("model", "stream")


def gemini_endpoint(base_url: str, model: str, stream: bool) -> str:
    """The method URL below ``base_url`` (kept when it names a method already)."""
    parts = urlsplit(base_url.strip())
    path = parts.path.rstrip("/")
    query = parts.query
    if not gemini_path(path):
        if not path.endswith("/models"):
            path += "/models" if path.endswith(("/v1beta", "/v1")) else "/v1beta/models"
        path += f"/{model}:{'streamGenerateContent' if stream else 'generateContent'}"
    if path.endswith(":streamGenerateContent") and "alt=sse" not in query:
        query = f"{query}&alt=sse" if query else "alt=sse"
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def sent_body(request_body: Mapping[str, Any]) -> dict[str, Any]:
    """The body sent to Gemini: the request file without toolwire's keys."""
    return {k: v for k, v in request_body.items() if k not in _TOOLWIRE_KEYS}
