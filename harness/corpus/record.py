"""`toolwire record`: one live exchange, recorded through vcrpy, becomes a case.

The request body is sent with the standard library HTTP client (which vcrpy
patches) to the dialect's endpoint below ``base_url``. vcrpy records into a
temporary cassette with credential headers filtered, key-like query
parameters removed, compressed bodies decoded, and every body scrubbed by the
hooks before anything reaches the disk. The cassette then goes through the
same pipeline as `toolwire corpus add` (scrub again, detect, validate, write
atomically) with a ``recorded`` provenance.

The API key comes from an environment variable, is sent only in its header,
and is treated as a known secret everywhere else: never written, never
printed.
"""

from __future__ import annotations

import datetime
import json
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from toolwire.harness import __version__, json_text
from toolwire.harness.corpus.case_ids import slugify
from toolwire.harness.corpus.foreign import read_foreign_cassette
from toolwire.harness.corpus.import_block import RECORDER
from toolwire.harness.corpus.importer import AddOptions, AddResult, add_exchanges
from toolwire.harness.corpus.record_gemini import API_KEY_HEADER as GEMINI_KEY_HEADER
from toolwire.harness.corpus.record_gemini import gemini_endpoint, sent_body
from toolwire.harness.corpus.scrub import (
    SCRUBBED_HEADERS,
    SECRET_QUERY_PARAMETERS,
    Scrubber,
    is_secret_header,
)
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI, OPENAI_RESPONSES
from toolwire.harness.redaction import redact
from toolwire.harness.redirects import open_url

# The environment variable each dialect's key is read from by default (the
# names the providers' own SDKs read).
DEFAULT_KEY_ENV: Mapping[str, str] = {
    "openai-chat": "OPENAI_API_KEY",
    "anthropic-messages": "ANTHROPIC_API_KEY",
    "deepseek-chat": "DEEPSEEK_API_KEY",
    "qwen-xml": "OPENAI_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
}
# https://docs.anthropic.com/en/api/versioning: every request names a version.
ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_TIMEOUT = 300.0
_CREDENTIAL_STATUSES = (401, 403)
_MESSAGE_LIMIT = 200


class RecordError(ToolwireError):
    """The exchange could not be recorded (unreachable, refused, error status):
    a usage error (exit 2), as the other refusals of `record` are."""

    exit_code = 2


@dataclass(frozen=True)
class RecordOptions:
    base_url: str
    dialect: str
    request_body: Mapping[str, Any]
    add: AddOptions
    api_key: str | None = None
    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    # Keep a 4xx/5xx answer as the case (it documents the API's refusal).
    allow_error_status: bool = False


@dataclass(frozen=True)
class Recorded:
    url: str
    status: int
    result: AddResult
    # What the recording removed (names and counts, never values).
    scrubbed: str


def endpoint_url(base_url: str, dialect: str, model: str = "", stream: bool = False) -> str:
    """The endpoint below ``base_url``, as the providers' SDKs build it.

    OpenAI-style base URLs end where ``/chat/completions`` is appended
    (``https://api.openai.com/v1``, ``http://localhost:8000/v1``,
    ``https://api.deepseek.com``); Anthropic's is the host, below which the
    SDK calls ``/v1/messages``. A URL that already names the endpoint is kept.
    Gemini's names the model and the method (``record_gemini.py``).
    SDK calls ``/v1/messages``. The Responses API is ``/responses`` below the
    OpenAI base URL (``https://api.openai.com/v1/responses``). A URL that
    already names the endpoint is kept.
    """
    parts = urlsplit(base_url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RecordError(
            f"--base-url {base_url!r} is not an http(s) URL",
            hint="e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1",
        )
    if dialect == GEMINI:
        return gemini_endpoint(base_url, model or "{model}", stream)
    path = parts.path.rstrip("/")
    if dialect == ANTHROPIC_MESSAGES:
        if not path.endswith("/messages"):
            path += "/messages" if path.endswith("/v1") else "/v1/messages"
    elif dialect == OPENAI_RESPONSES:
        if not path.endswith("/responses"):
            path += "/responses"
    elif not path.endswith("/chat/completions"):
        path += "/chat/completions"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def record_case(options: RecordOptions) -> Recorded:
    """Send the request, record it, and add it to the corpus."""
    import vcr  # here: `toolwire --help` should not pay for vcrpy

    model = options.request_body.get("model")
    if not isinstance(model, str) or not model:
        raise RecordError(
            "the request body has no model", hint='add "model": "..." to the request file'
        )
    stream = options.request_body.get("stream") is True
    url = endpoint_url(options.base_url, options.dialect, model, stream)
    scrubber = Scrubber.with_secrets([options.api_key])
    shown_url = scrubber.uri(url)
    sent = options.request_body
    if options.dialect == GEMINI:
        sent = sent_body(sent)  # model and stream are in Gemini's URL
    body = json.dumps(sent, ensure_ascii=False).encode("utf-8")
    headers = _headers(options)
    # vcrpy's filter_headers drops these before our hooks see them: log them here.
    scrubber.log.headers.extend(name.lower() for name in headers if is_secret_header(name))
    with tempfile.TemporaryDirectory(prefix="toolwire-record-") as folder:
        cassette = Path(folder) / "exchange.yaml"
        recorder = vcr.VCR(
            record_mode="new_episodes",
            decode_compressed_response=True,
            filter_headers=sorted(SCRUBBED_HEADERS),
            filter_query_parameters=sorted(SECRET_QUERY_PARAMETERS),
            before_record_request=_request_hook(scrubber),
            before_record_response=_response_hook(scrubber),
        )
        with recorder.use_cassette(str(cassette)):
            status = _send(url, shown_url, body, headers, options.timeout)
        if not cassette.exists():
            raise RecordError(f"{shown_url}: vcrpy recorded nothing", hint="report this bug")
        exchanges, _block = read_foreign_cassette(cassette)
    if status >= 400:
        _refuse_error_status(status, exchanges[0].response_body, shown_url, options, scrubber)

    parts = urlsplit(shown_url)
    provenance = {
        "kind": "recorded",
        "endpoint": urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")),
        "model": model,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "recorder": RECORDER,
    }
    add = replace(
        options.add,
        dialect=options.dialect,
        provenance=provenance,
        secrets=(*options.add.secrets, *([options.api_key] if options.api_key else [])),
    )
    result = add_exchanges(exchanges, add, shown_url, slug=_slug(options.request_body, model))
    return Recorded(shown_url, status, result, scrubber.log.summary(counts=False))


def _headers(options: RecordOptions) -> dict[str, str]:
    stream = options.request_body.get("stream") is True
    headers = {
        "Content-Type": "application/json",
        "Accept": "text/event-stream" if stream else "application/json",
        # What the providers' SDKs send, so the upstream answers as it does
        # for them; vcrpy decodes the body before recording it.
        "Accept-Encoding": "gzip, deflate",
        "User-Agent": f"toolwire/{__version__}",
    }
    if options.dialect == ANTHROPIC_MESSAGES:
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if options.api_key:
            headers["x-api-key"] = options.api_key
    elif options.dialect == GEMINI:
        if options.api_key:
            headers[GEMINI_KEY_HEADER] = options.api_key
    elif options.api_key:
        headers["Authorization"] = f"Bearer {options.api_key}"
    for name, value in options.headers:
        headers[name] = value
    return headers


def _send(url: str, shown_url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with open_url(request, timeout=timeout) as response:
            response.read()
            status: int = response.status
            return status
    except urllib.error.HTTPError as error:  # recorded all the same
        error.read()
        code: int = error.code
        return code
    except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
        reason = getattr(error, "reason", error)
        raise RecordError(
            f"{shown_url}: cannot reach the upstream ({reason})",
            hint="check --base-url and that the server is running",
        ) from None


def _refuse_error_status(
    status: int, body: str, url: str, options: RecordOptions, scrubber: Scrubber
) -> None:
    if status in _CREDENTIAL_STATUSES:
        env_hint = "set the API key's environment variable, or pass --api-key-env NAME"
        raise RecordError(
            f"{url}: the upstream refused the credentials (HTTP {status}); nothing was written",
            hint=env_hint,
        )
    if options.allow_error_status:
        return
    raise RecordError(
        f"{url}: the upstream answered HTTP {status}: {_error_message(body, scrubber)}",
        hint="fix the request, or pass --allow-error-status to keep the error answer as a case",
    )


def _error_message(body: str, scrubber: Scrubber) -> str:
    """The upstream's error message, scrubbed and shortened (it may echo the key)."""
    text = body
    try:
        value = json_text.loads(body)
    except ValueError:
        value = None
    if isinstance(value, dict):
        error = value.get("error", value)
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str):
            text = message
    text = redact(scrubber.text(" ".join(text.split())))
    return text if len(text) <= _MESSAGE_LIMIT else text[: _MESSAGE_LIMIT - 1] + "…"


def _slug(body: Mapping[str, Any], model: str) -> str:
    tools = body.get("tools")
    name = None
    if isinstance(tools, list) and tools and isinstance(tools[0], dict):
        function = tools[0].get("function")
        name = function.get("name") if isinstance(function, dict) else tools[0].get("name")
    return slugify(f"{model} {name}" if isinstance(name, str) else model)


def _request_hook(scrubber: Scrubber) -> Any:
    def scrub_request(request: Any) -> Any:
        for name in list(request.headers):
            if is_secret_header(name):
                scrubber.log.headers.append(name.lower())
                del request.headers[name]
            else:
                request.headers[name] = scrubber.text(str(request.headers[name]))
        request.uri = scrubber.uri(request.uri)
        body = request.body
        if isinstance(body, bytes):
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                return request  # not text: the importer refuses it later
            content_type = request.headers.get("Content-Type")
            request.body = scrubber.body(text, content_type).encode("utf-8")
        return request

    return scrub_request


def _response_hook(scrubber: Scrubber) -> Any:
    def scrub_response(response: dict[str, Any]) -> dict[str, Any]:
        headers = response.get("headers") or {}
        response["headers"] = kept = scrubber.headers(headers)
        body = response.get("body") or {}
        data = body.get("string")
        if isinstance(data, bytes):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return response
            content_type = next(
                (values[0] for name, values in kept.items() if name.lower() == "content-type"),
                None,
            )
            body["string"] = scrubber.body(text, content_type).encode("utf-8")
        return response

    return scrub_response
