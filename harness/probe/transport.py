"""Talking to the endpoint: one POST per call, every exchange kept for recording.

The standard library's HTTP client sends each JSON body to the dialect's
endpoint below the base URL (built as the providers' SDKs build it, like
`toolwire record`). The API key travels only in its header; the exchange
kept for ``--record`` never holds a credential header, and error messages
shown to the user are scrubbed of the key and of anything key-like.

No ``Accept-Encoding`` is sent, so bodies arrive uncompressed and are kept
exactly as received (streams included: the event-stream text is read whole
and parsed afterwards).
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from toolwire.harness import __version__, json_text
from toolwire.harness.corpus.foreign import RawExchange
from toolwire.harness.corpus.record import ANTHROPIC_VERSION, endpoint_url
from toolwire.harness.corpus.record_gemini import API_KEY_HEADER as GEMINI_KEY_HEADER
from toolwire.harness.corpus.record_gemini import sent_body
from toolwire.harness.corpus.scrub import Scrubber, is_secret_header
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI
from toolwire.harness.redaction import redact
from toolwire.harness.redirects import open_url

_MESSAGE_LIMIT = 200


class ProbeError(ToolwireError):
    """The probe cannot go on: the endpoint is unreachable or refuses us."""

    exit_code = 3


class ProbeTimeout(ProbeError):
    """One request got no answer in time (a step failure, not the end)."""


@dataclass(frozen=True)
class Endpoint:
    """Where the probe sends its requests, and how it authenticates."""

    base_url: str
    dialect: str
    api_key: str | None = None
    timeout: float = 120.0

    @property
    def url(self) -> str:
        return endpoint_url(self.base_url, self.dialect)

    @property
    def provider(self) -> str:
        """The host (and port) answering: what the profile is bound to
        (never the ``user:password@`` a URL may carry)."""
        return urlsplit(self.url).netloc.rpartition("@")[2]

    def scrubber(self) -> Scrubber:
        return Scrubber.with_secrets([self.api_key])


@dataclass(frozen=True)
class Exchange:
    """One request and its answer, as sent and received (no credential header)."""

    url: str
    request_headers: Mapping[str, str]
    request_body: Mapping[str, Any]
    status: int
    reason: str
    response_headers: tuple[tuple[str, str], ...]
    response_text: str

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def content_type(self) -> str:
        for name, value in self.response_headers:
            if name.lower() == "content-type":
                return value.split(";", 1)[0].strip().lower()
        return ""

    @property
    def is_stream(self) -> bool:
        return self.content_type == "text/event-stream"

    def raw(self, index: int = 0) -> RawExchange:
        """The exchange as the corpus importer takes it (it scrubs again)."""
        response_headers: dict[str, list[str]] = {}
        for name, value in self.response_headers:
            response_headers.setdefault(name, []).append(value)
        return RawExchange(
            method="POST",
            uri=self.url,
            request_headers={name: [value] for name, value in self.request_headers.items()},
            request_body=json.dumps(self.request_body, ensure_ascii=False),
            status_code=self.status,
            status_message=self.reason,
            response_headers=response_headers,
            response_body=self.response_text,
            index=index,
        )


def post(endpoint: Endpoint, body: Mapping[str, Any]) -> Exchange:
    """Send ``body``; any HTTP status is an answer, a broken transport raises."""
    url = endpoint.url
    stream = body.get("stream") is True
    shown = _headers(endpoint.dialect, stream)
    sent = dict(shown)
    if endpoint.dialect == GEMINI:
        # Gemini names the model and streaming in the URL (record_gemini.py).
        model = body.get("model")
        url = endpoint_url(
            endpoint.base_url, GEMINI, model if isinstance(model, str) else "", stream
        )
        body = sent_body(body)
    if endpoint.api_key:
        if endpoint.dialect == ANTHROPIC_MESSAGES:
            sent["x-api-key"] = endpoint.api_key
        elif endpoint.dialect == GEMINI:
            sent[GEMINI_KEY_HEADER] = endpoint.api_key
        else:
            sent["Authorization"] = f"Bearer {endpoint.api_key}"
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=sent, method="POST")
    shown_url = endpoint.scrubber().uri(url)
    try:
        with open_url(request, timeout=endpoint.timeout) as response:
            text = response.read().decode("utf-8", "replace")
            return Exchange(
                url, shown, body, response.status, response.reason or "", _kept(response), text
            )
    except urllib.error.HTTPError as error:  # an answer all the same
        text = error.read().decode("utf-8", "replace")
        return Exchange(url, shown, body, error.code, error.reason or "", _kept(error), text)
    except TimeoutError:
        raise ProbeTimeout(
            f"{shown_url}: no answer within {endpoint.timeout:g} s",
            hint="raise --timeout for slow models",
        ) from None
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            raise ProbeTimeout(
                f"{shown_url}: no answer within {endpoint.timeout:g} s",
                hint="raise --timeout for slow models",
            ) from None
        raise ProbeError(
            f"cannot reach {shown_url} ({_reason(error.reason)})",
            hint="check --base-url and that the server is running",
        ) from None
    except (http.client.HTTPException, ConnectionError, OSError) as error:
        raise ProbeError(
            f"{shown_url}: the connection broke ({_reason(error)})",
            hint="check that the server is healthy, then probe again",
        ) from None


def error_message(exchange: Exchange, endpoint: Endpoint) -> str:
    """The endpoint's error text, scrubbed of secrets and shortened (it may echo the key)."""
    text = exchange.response_text
    try:
        value = json_text.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict):
        error = value.get("error", value)
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str):
            text = message
    text = redact(endpoint.scrubber().text(" ".join(text.split())))
    if not text:
        return exchange.reason or "no message"
    return text if len(text) <= _MESSAGE_LIMIT else text[: _MESSAGE_LIMIT - 1] + "…"


def _headers(dialect: str, stream: bool) -> dict[str, str]:
    headers = {
        "Content-Type": "application/json",
        "Accept": "text/event-stream" if stream else "application/json",
        "User-Agent": f"toolwire/{__version__} (probe)",
    }
    if dialect == ANTHROPIC_MESSAGES:
        headers["anthropic-version"] = ANTHROPIC_VERSION
    return headers


def _kept(response: Any) -> tuple[tuple[str, str], ...]:
    # Credential headers never leave this function (set-cookie, tokens).
    return tuple(
        (name, value) for name, value in response.headers.items() if not is_secret_header(name)
    )


def _reason(reason: object) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__
