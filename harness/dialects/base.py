"""The interface every dialect codec implements.

A codec is strict and independent of any adapter:

* ``parse_*`` reads a payload into the canonical model without inventing or
  dropping anything; it raises ``WireFormatError`` (with a JSON path) when the
  payload's *shape* makes that impossible (``messages`` not a list, a tool
  call without ``function``...). Semantic mistakes a converter can make
  (orphan results, arguments left as a string, empty text blocks) are *not*
  parse errors: they parse faithfully so that the rules can judge them.
* ``render_*`` writes a canonical object back in this dialect's shape. For an
  object it parsed, ``render(parse(p)) == p``. For objects built by code
  (empty ``extra``, no raw forms) it writes the dialect's natural form.
* ``parse_stream`` reassembles a list of SSE events into the message they
  carry, noting grammar problems as ``StreamIssue`` s rather than raising.
* ``render_stream`` writes a response as the event sequence its provider
  would send (used by converters that must emit streams).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from toolwire.harness.model import Conversation, Response, SSEEvent, StreamTranscript


class DialectCodec(Protocol):
    name: str

    def parse_request(self, payload: Any) -> Conversation: ...

    def render_request(self, conversation: Conversation) -> dict[str, Any]: ...

    def parse_response(self, payload: Any) -> Response: ...

    def render_response(self, response: Response) -> dict[str, Any]: ...

    def parse_stream(self, events: Sequence[SSEEvent]) -> StreamTranscript: ...

    def render_stream(self, response: Response) -> tuple[SSEEvent, ...]: ...
