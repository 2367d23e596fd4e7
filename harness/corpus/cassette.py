"""Reading and checking the vcrpy layer of a case file.

A case must stay a cassette vcrpy can replay, so the request keys are exactly
the four vcrpy passes to its ``Request`` constructor, and header values are
lists of strings (how vcrpy records them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard
from urllib.parse import urlsplit

from toolwire.harness.corpus.case import Interaction, frozen_headers
from toolwire.harness.corpus.vocabulary import CASSETTE_VERSION, TOP_LEVEL_KEYS, unknown_value_hint
from toolwire.harness.errors import CorpusError

_REQUEST_KEYS = ("method", "uri", "headers", "body")
_MIGRATE_HINT = (
    f"toolwire reads vcrpy cassettes of version {CASSETTE_VERSION} (written by vcrpy 1.0 and "
    "later); re-record the case with a current vcrpy or `toolwire record`, or migrate the file "
    "to the layout in docs/corpus-format.md"
)


def check_top_level(data: Any, source: str) -> Mapping[str, Any]:
    """The file is a mapping with a supported `version` and only known keys."""
    if not isinstance(data, Mapping):
        raise CorpusError(
            source,
            "is not a cassette (expected a mapping with version, toolwire, interactions)",
            "see docs/corpus-format.md for the layout",
        )
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise CorpusError(
                source,
                f"unknown top-level key {key!r}",
                unknown_value_hint(str(key), TOP_LEVEL_KEYS),
            )
    if "version" not in data:
        raise CorpusError(
            source, "the cassette has no version", f"add `version: {CASSETTE_VERSION}`"
        )
    version = data["version"]
    if version != CASSETTE_VERSION or type(version) is not int:
        raise CorpusError(source, f"cassette version {version!r} is not supported", _MIGRATE_HINT)
    return data


def parse_interactions(value: Any, source: str) -> tuple[Interaction, ...]:
    """The `interactions` list as Interactions (non-empty, right shapes)."""
    if not isinstance(value, list) or not value:
        raise CorpusError(
            source,
            "interactions must be a non-empty list",
            "record at least one request and its response",
        )
    return tuple(_interaction(item, index, source) for index, item in enumerate(value))


def _interaction(item: Any, index: int, source: str) -> Interaction:
    where = f"interactions[{index}]"
    if not isinstance(item, Mapping) or set(item) != {"request", "response"}:
        raise CorpusError(
            source, f"{where} must have exactly `request` and `response`", "see the example layout"
        )
    request = _mapping(item["request"], f"{where}.request", source)
    response = _mapping(item["response"], f"{where}.response", source)

    keys = set(request)
    if keys != set(_REQUEST_KEYS):
        missing = [key for key in _REQUEST_KEYS if key not in keys]
        extra = sorted(str(key) for key in keys - set(_REQUEST_KEYS))
        problem = f"lacks {', '.join(missing)}" if missing else f"has unknown {', '.join(extra)}"
        raise CorpusError(
            source,
            f"{where}.request {problem}",
            "a vcrpy request has exactly: method, uri, headers, body",
        )
    method = request["method"]
    if not isinstance(method, str) or not method.isalpha() or not method.isupper():
        raise CorpusError(source, f"{where}.request.method must be an HTTP method", "write POST")
    uri = request["uri"]
    if not is_http_url(uri):
        raise CorpusError(
            source,
            f"{where}.request.uri must be an absolute http(s) URL",
            "write https://host/path",
        )
    body = request["body"]
    if body is not None and not isinstance(body, str):
        raise CorpusError(
            source,
            f"{where}.request.body must be text",
            "store the JSON body as a string (a `|-` block)",
        )

    status = _mapping(response.get("status"), f"{where}.response.status", source)
    code = status.get("code")
    if type(code) is not int or not 100 <= code <= 599:
        raise CorpusError(
            source, f"{where}.response.status.code must be an HTTP status", "write code: 200"
        )
    message = status.get("message")
    if not isinstance(message, str):
        raise CorpusError(
            source, f"{where}.response.status.message must be text", "write message: OK"
        )
    response_body = _mapping(response.get("body"), f"{where}.response.body", source)
    text = response_body.get("string")
    if not isinstance(text, str):
        raise CorpusError(
            source,
            f"{where}.response.body.string must be text",
            "store the body as UTF-8 text (a `|-` block), not binary",
        )
    return Interaction(
        method=method,
        uri=uri,
        request_headers=_headers(request["headers"], f"{where}.request.headers", source),
        request_body_text=body,
        status_code=code,
        status_message=message,
        response_headers=_headers(response.get("headers"), f"{where}.response.headers", source),
        response_body_text=text,
        source=source,
        index=index,
    )


def _headers(value: Any, where: str, source: str) -> Mapping[str, tuple[str, ...]]:
    # vcrpy reads `headers` on replay, so an empty mapping must still be written.
    headers = _mapping(value, where, source)
    result: dict[str, tuple[str, ...]] = {}
    for name, values in headers.items():
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise CorpusError(
                source,
                f"{where}.{name} must be a list of strings",
                f"write `{name}: ['value']` (quote numbers)",
            )
        result[str(name)] = tuple(values)
    return frozen_headers(result)


def _mapping(value: Any, where: str, source: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CorpusError(source, f"{where} must be a mapping", "see docs/corpus-format.md")
    return value


def is_http_url(value: Any) -> TypeGuard[str]:
    """An absolute http(s) URL that urllib can take apart (a malformed
    ``[host]`` or port raises ValueError there, wherever it is used next)."""
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        return False
    try:
        _ = urlsplit(value).port  # the port is checked only when asked for
    except ValueError:
        return False
    return True
