"""Reading an ``http://HOST:PORT?...`` adapter spec into the settings of a proxy under test.

The spec's grammar is documented in ``http_adapter.py`` (and docs/proxies.md);
this module checks it and turns it into a ``ProxySpec``, so that the adapter
module keeps to running exchanges. Every mistake is one ``AdapterLoadError``
naming the spec and how to fix it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from toolwire.harness.errors import AdapterLoadError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DIALECTS,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
)
from toolwire.harness.proxy.matching import MATCH_MODES, MatchMode
from toolwire.harness.proxy.process import HOST

QUERY_KEYS = (
    "front",
    "back",
    "path",
    "match",
    "timeout",
    "upstream_port",
    "ready",
    "header",
    "name",
    "version",
)
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an RFC 9110 token
# ``${NAME}`` in a header value: replaced by the environment variable when sent.
ENVIRONMENT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
DEFAULT_TIMEOUT = 30.0
# The front endpoint of each dialect (Gemini's: the prefix of its method paths).
DEFAULT_PATHS = {
    ANTHROPIC_MESSAGES: "/v1/messages",
    OPENAI_RESPONSES: "/v1/responses",
    GEMINI: "/v1beta",
}


@dataclass(frozen=True)
class ProxySpec:
    """What an http:// spec says; defaults filled in."""

    port: int | None
    extra_headers: tuple[tuple[str, str], ...]
    front: str
    back: str
    path: str
    match: MatchMode
    request_timeout: float
    upstream_port: int | None
    ready_path: str | None
    name: str
    version: str


def read_spec(spec: str) -> ProxySpec:
    """The settings ``spec`` names, or an ``AdapterLoadError`` saying what is wrong."""
    parts = urlsplit(spec)
    if parts.scheme != "http":
        raise AdapterLoadError(
            f"adapter {spec!r}: only plain http:// proxies on this machine can be tested",
            hint="run the proxy locally without TLS",
        )
    if parts.hostname not in (HOST, "localhost"):
        raise AdapterLoadError(
            f"adapter {spec!r}: the proxy must listen on 127.0.0.1, not {parts.hostname!r}",
            hint="its upstream is the replay server on 127.0.0.1, so it runs on this machine",
        )
    try:
        port: int | None = parts.port or None
    except ValueError as error:
        raise AdapterLoadError(f"adapter {spec!r}: bad port ({error})") from None
    options = _options(spec, parts.query)
    extra_headers = _extra_headers(spec, parts.query)
    front = _dialect(spec, options, "front", ANTHROPIC_MESSAGES)
    upstream = options.get("upstream_port")
    # Arguments are evaluated in order: of several mistakes, the first is reported.
    return ProxySpec(
        port=port,
        extra_headers=extra_headers,
        front=front,
        back=_dialect(spec, options, "back", OPENAI_CHAT),
        path=options.get("path", DEFAULT_PATHS.get(front, "/v1/chat/completions")),
        match=_match(spec, options.get("match", "conversation")),
        request_timeout=_number(spec, options, "timeout", DEFAULT_TIMEOUT),
        upstream_port=None if upstream is None else _port(spec, upstream),
        ready_path=options.get("ready"),
        name=options.get("name", "http-proxy"),
        version=options.get("version", "unknown"),
    )


def _options(spec: str, query: str) -> dict[str, str]:
    pairs = parse_qsl(query, keep_blank_values=True)
    options = {key: value for key, value in pairs if key != "header"}
    for key in options:
        if key not in QUERY_KEYS:
            raise AdapterLoadError(
                f"adapter {spec!r}: unknown option {key!r}",
                hint=f"options: {', '.join(QUERY_KEYS)}",
            )
    return options


def _extra_headers(spec: str, query: str) -> tuple[tuple[str, str], ...]:
    headers = []
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key != "header":
            continue
        name, colon, text = value.partition(":")
        name = name.strip()
        if not colon or not _HEADER_NAME.match(name):
            raise AdapterLoadError(
                f"adapter {spec!r}: header={value!r} is not Name:value",
                hint="write header=x-portkey-provider:openai (URL-encode spaces as %20)",
            )
        for variable in ENVIRONMENT.findall(text):
            if variable not in os.environ:
                raise AdapterLoadError(
                    f"adapter {spec!r}: header {name} uses ${{{variable}}}, which is not set",
                    hint=f"export {variable} before the run",
                )
        headers.append((name, text.strip()))
    return tuple(headers)


def _dialect(spec: str, options: dict[str, str], key: str, default: str) -> str:
    value = options.get(key, default)
    if value not in DIALECTS:
        raise AdapterLoadError(
            f"adapter {spec!r}: {key}={value!r} is not a dialect",
            hint=f"use one of: {', '.join(DIALECTS)}",
        )
    return value


def _match(spec: str, value: str) -> MatchMode:
    for mode in MATCH_MODES:
        if value == mode:
            return mode
    raise AdapterLoadError(
        f"adapter {spec!r}: match={value!r} is not a match mode",
        hint=f"use one of: {', '.join(MATCH_MODES)}",
    )


def _number(spec: str, options: dict[str, str], key: str, default: float) -> float:
    try:
        value = float(options.get(key, default))
    except ValueError:
        value = -1.0
    if not value > 0:
        raise AdapterLoadError(
            f"adapter {spec!r}: {key}={options.get(key)!r} is not a positive number"
        )
    return value


def _port(spec: str, text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise AdapterLoadError(
            f"adapter {spec!r}: upstream_port={text!r} is not a port number",
            hint="write a port between 1 and 65535",
        )
    return int(text)
