"""A corpus case in memory: metadata plus the HTTP interactions of its cassette.

Everything is a frozen dataclass built by ``toolwire.harness.corpus.loader``. Bodies
stay text exactly as in the file; the ``*_json`` and ``response_events``
helpers parse on demand, so loading a corpus never pays for payloads a run
does not touch.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.errors import CorpusError
from toolwire.harness.model import JsonValue, PayloadKind, SSEEvent
from toolwire.harness.sse import parse_sse

_NO_HEADERS: Mapping[str, tuple[str, ...]] = MappingProxyType({})

__all__ = ["Case", "Expect", "ExpectedCall", "Interaction", "Provenance"]


@dataclass(frozen=True)
class Provenance:
    """Where a case's payloads come from. ``kind`` is ``recorded`` (with
    ``endpoint``, ``model``, ``date``, ``recorder``), ``documented`` or
    ``reported`` (with ``url``); fields a kind does not use are ``None``."""

    kind: str
    url: str | None = None
    endpoint: str | None = None
    model: str | None = None
    date: str | None = None
    recorder: str | None = None

    @property
    def reference(self) -> str:
        """The URL that backs the case (documentation, issue or endpoint)."""
        return self.url or self.endpoint or ""


@dataclass(frozen=True)
class ExpectedCall:
    """A tool call a correct Qwen XML parser extracts."""

    name: str
    arguments: Mapping[str, JsonValue]


@dataclass(frozen=True)
class Expect:
    """The expected values the rules need (all optional)."""

    violations: tuple[str, ...] = ()
    tool_calls: tuple[ExpectedCall, ...] | None = None
    text: str | None = None
    xml_issues: tuple[str, ...] = ()

    @property
    def is_negative(self) -> bool:
        return bool(self.violations)


@dataclass(frozen=True)
class Interaction:
    """One HTTP exchange of the cassette. ``source`` and ``index`` say where
    it came from, for error messages."""

    method: str
    uri: str
    request_headers: Mapping[str, tuple[str, ...]]
    request_body_text: str | None
    status_code: int
    response_headers: Mapping[str, tuple[str, ...]]
    response_body_text: str
    status_message: str = ""
    source: str = field(default="", compare=False)
    index: int = field(default=0, compare=False)

    def request_header(self, name: str) -> str | None:
        return _first_header(self.request_headers, name)

    def response_header(self, name: str) -> str | None:
        return _first_header(self.response_headers, name)

    def is_stream(self) -> bool:
        """True when the response is a server-sent event stream."""
        content_type = self.response_header("Content-Type") or ""
        return content_type.split(";", 1)[0].strip().lower() == "text/event-stream"

    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    @property
    def payload_kinds(self) -> tuple[PayloadKind, ...]:
        """What this exchange holds: a request, plus a response or a stream."""
        return ("request", "stream") if self.is_stream() else ("request", "response")

    def request_json(self) -> JsonValue:
        """The request body parsed as JSON (CorpusError when it is not JSON)."""
        if self.request_body_text is None:
            raise CorpusError(
                self._where("request body"), "is empty", "record the JSON body the client sent"
            )
        return self._parse(self.request_body_text, "request body")

    def response_json(self) -> JsonValue:
        """The response body parsed as JSON (CorpusError for a stream or non-JSON)."""
        if self.is_stream():
            raise CorpusError(
                self._where("response body"),
                "is an event stream, not JSON",
                "use response_events() for streams",
            )
        return self._parse(self.response_body_text, "response body")

    def response_events(self) -> tuple[SSEEvent, ...]:
        """The events of a streamed response, exactly as sent."""
        if not self.is_stream():
            raise CorpusError(
                self._where("response body"),
                "is not an event stream",
                "use response_json() for JSON responses",
            )
        events = parse_sse(self.response_body_text)
        for number, event in enumerate(events, 1):
            if _may_hold_non_finite(event.data):
                try:
                    json.loads(event.data, parse_constant=_refuse_constant)
                except _NonFiniteNumber as error:
                    raise self._non_finite(f"response event {number}", error) from None
                except ValueError:
                    pass  # not JSON: the codec judges that
        return events

    def _parse(self, text: str, what: str) -> JsonValue:
        try:
            return json_text.loads(text, parse_constant=_refuse_constant)
        except _NonFiniteNumber as error:
            raise self._non_finite(what, error) from None
        except json.JSONDecodeError as error:
            raise CorpusError(
                self._where(what),
                f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
                "store the body exactly as sent on the wire",
            ) from None

    def _non_finite(self, what: str, error: _NonFiniteNumber) -> CorpusError:
        # Python's json reads NaN and Infinity; JSON (RFC 8259) has no such
        # numbers, so no API sent them: the case is wrong, not an adapter.
        return CorpusError(
            self._where(what),
            f"holds {error.constant}, which is not a JSON number",
            "a recorded body is JSON exactly as sent; remove the value or write it as a string",
        )

    def _where(self, what: str) -> str:
        return f"{self.source}: interaction {self.index + 1} {what}"


class _NonFiniteNumber(ValueError):
    def __init__(self, constant: str) -> None:
        super().__init__(constant)
        self.constant = constant


def _refuse_constant(constant: str) -> Any:
    raise _NonFiniteNumber(constant)


def _may_hold_non_finite(text: str) -> bool:
    """A cheap test before a second, strict parse of a stream event."""
    return "NaN" in text or "Infinity" in text


@dataclass(frozen=True)
class Case:
    """One corpus case. ``source`` is the file it was loaded from."""

    id: str
    description: str
    features: tuple[str, ...]
    dialect: str
    profile: str
    provenance: Provenance
    interactions: tuple[Interaction, ...]
    source: Path
    twins: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    expect: Expect = field(default_factory=Expect)

    @property
    def is_negative(self) -> bool:
        return self.expect.is_negative

    @property
    def payload_kinds(self) -> tuple[PayloadKind, ...]:
        """The kinds of payload found in any interaction, in canonical order."""
        found = {kind for interaction in self.interactions for kind in interaction.payload_kinds}
        return tuple(kind for kind in ("request", "response", "stream") if kind in found)

    def has_feature(self, feature: str) -> bool:
        return feature in self.features


def _first_header(headers: Mapping[str, tuple[str, ...]], name: str) -> str | None:
    wanted = name.lower()
    for key, values in headers.items():
        if key.lower() == wanted and values:
            return values[0]
    return None


def frozen_headers(headers: Mapping[str, tuple[str, ...]]) -> Mapping[str, tuple[str, ...]]:
    """A read-only copy of a header mapping."""
    return MappingProxyType(dict(headers)) if headers else _NO_HEADERS


def frozen_mapping(values: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(values))
