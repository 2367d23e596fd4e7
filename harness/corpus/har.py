"""A HAR 1.2 file (HTTP Archive: Polly.js recordings, browsers' exports) as a
vcrpy cassette document, so that one reader serves both.

HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): ``log.entries``,
each with ``request`` (``method``, ``url``, ``headers`` as a list of
``{name, value}``, ``postData.text``) and ``response`` (``status``,
``statusText``, ``headers``, ``content.text``, base64 when
``content.encoding`` says so). Headers keep their order and repeats; bodies
stay text (or bytes for base64 content, which the cassette reader decodes
as it decodes ``!!binary``).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
from collections.abc import Mapping
from typing import Any

from toolwire.harness.corpus.vocabulary import CASSETTE_VERSION


def is_har(data: Any) -> bool:
    log = data.get("log") if isinstance(data, Mapping) else None
    return isinstance(log, Mapping) and isinstance(log.get("entries"), list)


def har_to_cassette(data: Any) -> dict[str, Any] | None:
    """The vcrpy document of a HAR file; None when ``data`` is not HAR."""
    if not is_har(data) or "interactions" in data:
        return None
    entries = data["log"]["entries"]
    return {
        "version": CASSETTE_VERSION,
        "interactions": [_interaction(entry) for entry in entries],
    }


def _interaction(entry: Any) -> Any:
    if not isinstance(entry, Mapping):
        return entry  # the cassette reader says what is wrong with it
    request = entry.get("request")
    response = entry.get("response")
    return {
        "request": _request(request) if isinstance(request, Mapping) else request,
        "response": _response(response) if isinstance(response, Mapping) else response,
    }


def _request(request: Mapping[str, Any]) -> dict[str, Any]:
    post = request.get("postData")
    body = post.get("text") if isinstance(post, Mapping) else None
    return {
        "method": request.get("method"),
        "uri": request.get("url"),
        "headers": _headers(request.get("headers")),
        "body": body,
    }


def _response(response: Mapping[str, Any]) -> dict[str, Any]:
    content = response.get("content")
    text: Any = content.get("text") if isinstance(content, Mapping) else None
    if isinstance(content, Mapping) and content.get("encoding") == "base64":
        # Not base64 after all: left as text, and read as it is.
        with contextlib.suppress(binascii.Error, ValueError):
            text = base64.b64decode(str(text or ""), validate=True)
    status = response.get("status")
    return {
        "status": {"code": status, "message": response.get("statusText")},
        "headers": _headers(response.get("headers")),
        "body": {"string": text},
    }


def _headers(found: Any) -> Any:
    if not isinstance(found, list):
        return found
    headers: dict[str, list[str]] = {}
    for item in found:
        if isinstance(item, Mapping) and isinstance(item.get("name"), str):
            headers.setdefault(item["name"], []).append(str(item.get("value", "")))
    return headers
