"""Payloads under test: from a case's interactions, and from an adapter's output.

The adapter protocol speaks plain JSON (docs/adapters.md): a request or
response is a dict; a stream is a list of ``{"event", "data"}`` where data
is the parsed chunk or the string ``"[DONE]"``. The oracle reads each with
its dialect's codec.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.harness import json_text
from toolwire.harness.corpus.case import Case, Interaction
from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import ToolwireError, WireFormatError
from toolwire.harness.model import GEMINI, PayloadKind, SSEEvent, ToolDef
from toolwire.harness.sse import parse_sse


@dataclass(frozen=True)
class SourcePayload:
    """One payload of a case that an adapter will convert."""

    interaction: int
    kind: PayloadKind
    raw: Any
    under_test: PayloadUnderTest
    # The request a response or stream answers (None for a request).
    request_raw: Any = None

    @property
    def label(self) -> str:
        return f"interaction {self.interaction + 1} {self.kind}"


def events_to_wire(events: tuple[SSEEvent, ...]) -> list[dict[str, Any]]:
    """SSE events as the adapter protocol passes them."""
    wire = []
    for event in events:
        try:
            data: Any = json_text.loads(event.data)
        except json.JSONDecodeError:
            data = event.data
        wire.append({"event": event.event, "data": data})
    return wire


def wire_to_events(payload: Any) -> tuple[SSEEvent, ...]:
    """An adapter's stream output (event list or event-stream text) as SSE events."""
    if isinstance(payload, str):
        return parse_sse(payload)
    if not isinstance(payload, list):
        raise WireFormatError(
            "$",
            f"a stream must be a list of events or event-stream text, not {type(payload).__name__}",
            "see docs/adapters.md",
        )
    events = []
    for index, item in enumerate(payload):
        if not isinstance(item, dict) or "data" not in item:
            raise WireFormatError(f"[{index}]", 'each event must be an object with "data"')
        data = item["data"]
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        event = item.get("event")
        events.append(SSEEvent(data=text, event=event if isinstance(event, str) else None))
    return tuple(events)


def parse_payload(
    dialect: str,
    kind: PayloadKind,
    raw: Any,
    profile: str,
    tools: tuple[ToolDef, ...] | None = None,
    label: str = "",
) -> PayloadUnderTest:
    """Read ``raw`` with the dialect's codec (WireFormatError when its shape is wrong)."""
    codec = get_codec(dialect)
    parsed: Any
    if kind == "request":
        parsed = codec.parse_request(raw)
        tools = parsed.tools
    elif kind == "response":
        parsed = _with_tools(codec.parse_response, raw, tools)
    else:
        parsed = _with_tools(codec.parse_stream, wire_to_events(raw), tools)
    return PayloadUnderTest(dialect, kind, profile, raw, parsed, tools, label)


def _with_tools(parse: Any, payload: Any, tools: tuple[ToolDef, ...] | None) -> Any:
    # The qwen-xml codec types XML values by the request's tools; others ignore them.
    if tools is not None:
        try:
            return parse(payload, tools=tools)
        except TypeError:
            pass
    return parse(payload)


# The parsed payloads of the last few cases. A run asks for a case's requests
# again for each other kind (a response is read with its request's tools) and
# for twins; parsing a long conversation is the costly part. Entries hold the
# case itself, so its id() cannot be reused while it is remembered.
_REMEMBERED_CASES = 16
# The model segment of a Gemini call's path (REST: models/{model}:method).
_GEMINI_MODEL = re.compile(r"/models/([^/:?]+):(?:stream)?[gG]enerateContent")
_memo: OrderedDict[tuple[int, str], tuple[Case, list[SourcePayload]]] = OrderedDict()
_memo_lock = threading.Lock()


def case_payloads(case: Case, kind: PayloadKind) -> list[SourcePayload]:
    """Every payload of ``kind`` in the case, parsed (errors name the interaction)."""
    key = (id(case), kind)
    with _memo_lock:
        entry = _memo.get(key)
        if entry is not None and entry[0] is case:
            _memo.move_to_end(key)
            return list(entry[1])
    found = _parse_case_payloads(case, kind)
    with _memo_lock:
        _memo[key] = (case, found)
        while len(_memo) > _REMEMBERED_CASES * 3:
            _memo.popitem(last=False)
    return list(found)


def _parse_case_payloads(case: Case, kind: PayloadKind) -> list[SourcePayload]:
    requests = (
        {} if kind == "request" else {s.interaction: s for s in case_payloads(case, "request")}
    )
    found = []
    for interaction in case.interactions:
        raw = _raw_of(interaction, kind)
        if kind == "request" and case.dialect == GEMINI:
            raw = with_url_model(raw, interaction.uri)
        if raw is None:
            continue
        label = f"interaction {interaction.index + 1} {kind}"
        request = requests.get(interaction.index)
        tools = request.under_test.tools if request is not None else None
        try:
            under_test = parse_payload(case.dialect, kind, raw, case.profile, tools, label)
        except ToolwireError as error:
            raise ToolwireError(f"case {case.id}: {label} does not parse: {error}") from error
        request_raw = request.raw if request is not None else None
        found.append(SourcePayload(interaction.index, kind, raw, under_test, request_raw))
    return found


def with_url_model(body: Any, uri: str) -> Any:
    """A Gemini request body with the model its URL names
    (``.../models/{model}:generateContent``) as ``model``, when the body has
    none: the body of a Gemini call does not carry the model, and a converter
    (a proxy reading the path) needs it (docs/corpus-format.md)."""
    match = _GEMINI_MODEL.search(uri)
    if not isinstance(body, dict) or "model" in body or match is None:
        return body
    return {"model": match.group(1), **body}


def sent_back_from_gemini(output: Any, source: SourcePayload) -> Any:
    """A Gemini request a converter made, as the return leg of a round trip
    passes it on: with the source's model as ``model`` when the body has none.
    A Gemini body never names the model (the URL does); a proxy calling back
    knows it from the path, and the engine gives it in the body as it does
    for Gemini cases (``with_url_model``)."""
    conversation = source.under_test.conversation
    model = conversation.model if conversation is not None else None
    if source.kind != "request" or not isinstance(output, dict) or "model" in output:
        return output
    return output if not isinstance(model, str) else {"model": model, **output}


def _raw_of(interaction: Interaction, kind: PayloadKind) -> Any:
    if kind == "request":
        return interaction.request_json() if interaction.request_body_text else None
    if not interaction.is_success():
        return None  # an error body documents the API's answer; nothing to convert
    if kind == "response":
        return None if interaction.is_stream() else interaction.response_json()
    return events_to_wire(interaction.response_events()) if interaction.is_stream() else None
