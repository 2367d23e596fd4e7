"""Reading a cassette recorded elsewhere (vcrpy, pytest-recording) into plain exchanges.

Lenient where recorders differ and strict where toolwire needs text:
- YAML or JSON serialisation (vcrpy's two serializers);
- bodies as text, as ``!!binary`` bytes, or as ``parsed_body`` beside the
  headers (the serializer of pydantic-ai's test suite,
  tests/json_body_serializer.py: parsed JSON instead of ``body``);
- compressed response bodies (gzip, deflate; br when a brotli module is
  installed) are decoded (the importer then drops ``Content-Encoding``);
- HAR 1.2 files (Polly.js and browser recordings) read as the cassette they
  hold (``har.py``);
- a stream recorded in another form (Gemini's JSON array of chunks, sent
  without ``?alt=sse``; one chunk a line) is kept as the event stream of
  the same chunks, the form a case stores a stream in.

``toolwire lint`` reads bodies through the same two functions
(``request_body_text``, ``recorded_response_text``), so what ``corpus add``
can import, lint can judge.

Errors are ``CorpusError`` one-liners naming the interaction, never quoting
a body (bodies may hold secrets).
"""

from __future__ import annotations

import http
import importlib
import json
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.corpus.cassette import is_http_url
from toolwire.harness.corpus.har import har_to_cassette
from toolwire.harness.corpus.loader import display_path, read_yaml
from toolwire.harness.corpus.vocabulary import CASSETTE_VERSION
from toolwire.harness.errors import CorpusError
from toolwire.harness.sse import render_sse
from toolwire.harness.stream_forms import stream_events


@dataclass
class RawExchange:
    """One HTTP exchange with text bodies, before scrubbing."""

    method: str
    uri: str
    request_headers: dict[str, list[str]]
    request_body: str | None
    status_code: int
    status_message: str
    response_headers: dict[str, list[str]]
    response_body: str
    index: int = 0


def first_header(headers: Mapping[str, list[str]], name: str) -> str | None:
    wanted = name.lower()
    for key, values in headers.items():
        if key.lower() == wanted and values:
            return values[0]
    return None


def read_foreign_cassette(path: Path) -> tuple[list[RawExchange], Mapping[str, Any] | None]:
    """The exchanges of the cassette at ``path`` and its `toolwire:` block, if any."""
    source = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CorpusError(
            source, "is not UTF-8 text", "give a YAML or JSON vcrpy cassette"
        ) from None
    except OSError as error:
        raise CorpusError(source, f"cannot be read: {error.strerror}") from None
    data: Any
    if text.lstrip().startswith("{"):
        try:
            data = json_text.loads(text)
        except json.JSONDecodeError as error:
            raise CorpusError(
                f"{source}:{error.lineno}", f"invalid JSON: {error.msg}", "fix the JSON syntax"
            ) from None
    else:
        data = read_yaml(text, source)
    return exchanges_from_document(data, source)


def exchanges_from_document(
    data: Any, source: str
) -> tuple[list[RawExchange], Mapping[str, Any] | None]:
    found = har_to_cassette(data)
    if found is not None:
        data = found
    if not isinstance(data, Mapping) or "interactions" not in data:
        raise CorpusError(
            source,
            "is not a vcrpy cassette (no `interactions` list)",
            "record it with vcrpy or pytest-recording, or with `toolwire record`",
        )
    version = data.get("version")
    if version != CASSETTE_VERSION:
        raise CorpusError(
            source,
            f"cassette version {version!r} is not supported",
            f"toolwire reads vcrpy cassettes of version {CASSETTE_VERSION} (vcrpy 1.0 and later); "
            "re-record it with a current vcrpy",
        )
    interactions = data.get("interactions")
    if not isinstance(interactions, list) or not interactions:
        raise CorpusError(source, "has no interactions", "record at least one exchange")
    exchanges = [_exchange(item, index, source) for index, item in enumerate(interactions)]
    block = data.get("toolwire")
    return exchanges, block if isinstance(block, Mapping) else None


def _exchange(item: Any, index: int, source: str) -> RawExchange:
    where = f"{source}: interaction {index + 1}"
    if not isinstance(item, Mapping):
        raise CorpusError(where, "is not a mapping", "each interaction has request and response")
    request = _mapping(item.get("request"), where, "request")
    response = _mapping(item.get("response"), where, "response")
    method = request.get("method")
    uri = request.get("uri")
    if not isinstance(method, str) or not method.isalpha():
        raise CorpusError(where, "request.method must be an HTTP method", "e.g. POST")
    if not is_http_url(uri):
        raise CorpusError(where, "request.uri must be an absolute http(s) URL", "e.g. https://…")
    request_headers = _headers(request.get("headers"), where, "request")
    response_headers = _headers(response.get("headers"), where, "response")
    status = _mapping(response.get("status"), where, "response.status")
    code = status.get("code")
    if type(code) is not int or not 100 <= code <= 599:
        raise CorpusError(where, "response.status.code must be an HTTP status", "e.g. 200")
    message = status.get("message")
    if not isinstance(message, str):
        message = _reason(code)
    request_body = _request_body(request, where)
    response_body = recorded_response_text(response, response_headers, where)
    response_body = _as_event_stream(response_body, response_headers)
    return RawExchange(
        method=method.upper(),
        uri=uri,
        request_headers=request_headers,
        request_body=request_body,
        status_code=code,
        status_message=message,
        response_headers=response_headers,
        response_body=response_body,
        index=index,
    )


def _as_event_stream(body: str, headers: dict[str, list[str]]) -> str:
    """A stream recorded in another form (Gemini's JSON array of chunks without
    ``?alt=sse``, one chunk a line) as the event stream of the same chunks,
    which is how a case stores a stream; ``headers`` then say so."""
    kind = (first_header(headers, "content-type") or "").split(";", 1)[0].strip().lower()
    if kind == "text/event-stream" or not body.strip() or body.lstrip().startswith("data:"):
        return body
    try:
        if isinstance(json_text.loads(body), dict):
            return body  # one JSON body: a response
    except (json.JSONDecodeError, RecursionError):
        pass
    events = stream_events(body)
    if not events:
        return body
    for name in [name for name in headers if name.lower() == "content-type"]:
        del headers[name]
    headers["Content-Type"] = ["text/event-stream"]
    return render_sse(events)


def request_body_text(request: Mapping[str, Any], where: str) -> str | None:
    """A recorded request's body as text (``body``, ``body.string``, bytes or
    ``parsed_body``); None when it has none. A CorpusError says why not."""
    return _request_body(request, where)


def recorded_response_text(
    response: Mapping[str, Any], headers: dict[str, list[str]], where: str
) -> str:
    """A recorded response's body as text (``parsed_body`` or ``body``; bytes
    decompressed and decoded); ``""`` when it has none."""
    if "parsed_body" in response and "body" not in response:
        return _parsed_body_text(response["parsed_body"], where, "response")
    return _response_body(response.get("body"), headers, where)


def _request_body(request: Mapping[str, Any], where: str) -> str | None:
    if "parsed_body" in request and "body" not in request:
        return _parsed_body_text(request["parsed_body"], where, "request")
    body = request.get("body")
    if body is None or isinstance(body, str):
        return body
    if isinstance(body, bytes):
        return _utf8(body, where, "request body")
    if isinstance(body, Mapping) and "string" in body:
        inner = body["string"]
        if inner is None or isinstance(inner, str):
            return inner
        # Only bytes: bytes(n) of a number is n zero bytes (10**10 of them, once).
        if isinstance(inner, bytes | bytearray):
            return _utf8(bytes(inner), where, "request body")
    raise CorpusError(
        where,
        f"request.body{'.string' if isinstance(body, Mapping) else ''} must be text, "
        f"not {_type_name(body.get('string') if isinstance(body, Mapping) else body)}",
        "store the JSON body as a string",
    )


def _parsed_body_text(value: Any, where: str, side: str) -> str:
    """A ``parsed_body`` as JSON text; one line when YAML built something JSON
    cannot hold (a date, a set, bytes) or cannot write (nesting too deep)."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except TypeError as error:
        found = str(error).removeprefix("Object of type ").split(" ", 1)[0] or "value"
        problem = f"holds a YAML {found}, which JSON cannot carry"
    except ValueError as error:  # NaN/Infinity, or an integer past Python's digit limit
        problem = (
            "holds NaN or Infinity" if "float" in str(error) else "holds a number JSON text cannot"
        )
        problem += " carry"
    except RecursionError:
        problem = "nests deeper than toolwire can read"
    raise CorpusError(
        where,
        f"{side}.parsed_body {problem}",
        "quote dates and other such values so that YAML reads them as text",
    )


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def response_body_text(body: Any, headers: dict[str, list[str]], where: str) -> str:
    """A vcrpy response body as text: bytes (``!!binary``) decompressed per
    Content-Encoding and decoded as UTF-8, or a CorpusError saying why not."""
    return _response_body(body, headers, where)


def _response_body(body: Any, headers: dict[str, list[str]], where: str) -> str:
    if isinstance(body, Mapping):
        body = body.get("string")
    if isinstance(body, str):
        return body
    if isinstance(body, bytes | bytearray):
        data = _decompress(bytes(body), headers, where)
        return _utf8(data, where, "response body")
    if body is None:
        return ""
    raise CorpusError(where, "response.body.string must be text or bytes", "re-record it")


def _decompress(data: bytes, headers: dict[str, list[str]], where: str) -> bytes:
    encoding = (first_header(headers, "content-encoding") or "").strip().lower()
    if not encoding or encoding == "identity":
        return data
    decoder = _decoders().get(encoding)
    if decoder is None:
        raise CorpusError(
            where,
            f"the response body is {encoding}-compressed and cannot be decoded here",
            "install the brotli package, or record with decode_compressed_response=True",
        )
    try:
        return decoder(data)
    except Exception:
        raise CorpusError(
            where, f"the response body is not valid {encoding} data", "re-record it"
        ) from None


def _decoders() -> dict[str, Callable[[bytes], bytes]]:
    decoders: dict[str, Callable[[bytes], bytes]] = {
        "gzip": lambda data: zlib.decompress(data, zlib.MAX_WBITS | 16),
        "x-gzip": lambda data: zlib.decompress(data, zlib.MAX_WBITS | 16),
        "deflate": _inflate,
    }
    try:  # optional, as in vcrpy
        brotli = importlib.import_module("brotli")
    except ImportError:
        return decoders
    decoders["br"] = brotli.decompress
    return decoders


def _inflate(data: bytes) -> bytes:
    try:
        return zlib.decompress(data)
    except zlib.error:  # raw deflate, without the zlib header
        return zlib.decompress(data, -zlib.MAX_WBITS)


def _utf8(data: bytes, where: str, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CorpusError(
            where,
            f"the {what} is binary, not UTF-8 text",
            "toolwire cases hold JSON or event-stream text; re-record without compression",
        ) from None


def _headers(value: Any, where: str, side: str) -> dict[str, list[str]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise CorpusError(where, f"{side}.headers must be a mapping", "name: [value]")
    headers: dict[str, list[str]] = {}
    for name, values in value.items():
        items = values if isinstance(values, list) else [values]
        headers[str(name)] = ["" if item is None else str(item) for item in items]
    return headers


def _mapping(value: Any, where: str, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CorpusError(where, f"{what} must be a mapping", "see docs/corpus-format.md")
    return value


def _reason(code: int) -> str:
    try:
        return http.HTTPStatus(code).phrase
    except ValueError:
        return ""
