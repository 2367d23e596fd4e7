"""``ReferenceAdapter``: toolwire's own converter, driven through the adapter protocol.

Every conversion is parse -> transform -> render: the source codec reads the
payload into the canonical model, a small pure module transforms the
canonical objects (``to_anthropic``, ``to_openai``, ``qwen``), and the target
codec writes them in its natural form. Streams go through their reassembled
message (``streams.py``).

Beyond the protocol (docs/adapters.md), the adapter offers:

* ``convert(..., request=...)``: the optional keyword of the protocol
  (docs/adapters.md) through which the engine passes the request a response
  answers; its tools type Qwen XML parameter values by their JSON Schemas.
  ``with_tools(tools)`` / ``with_request(request, dialect)`` bind them for
  callers outside the engine. Without tools, values stay the strings
  written, as the qwen-xml codec reads them.
* ``id_mapping(payload, kind, source, target)``: the ids this conversion
  changes (source id -> output id), as ``pairing.id_changed`` asks a
  converter to declare. Only ids that Anthropic cannot carry change
  (``ids.py``); Qwen XML calls carry no id and get a generated one
  (``qwen.py``), which is not a mapping of anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from toolwire.harness import __version__
from toolwire.harness.adapters.reference import (
    allowed_tools,
    from_responses,
    gemini_steps,
    order,
    qwen,
    to_anthropic,
    to_openai,
    to_responses,
)
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.ids import changed_ids
from toolwire.harness.adapters.reference.streams import events_in, events_out
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.openai_chat.tools import parse_tool
from toolwire.harness.dialects.qwen_xml import QWEN_XML_CODEC
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    PAYLOAD_KINDS,
    QWEN_XML,
    Conversation,
    PayloadKind,
    Response,
    StreamTranscript,
    ToolCall,
    ToolDef,
    ToolResult,
)

_PAIRS: tuple[tuple[str, str], ...] = (
    (OPENAI_CHAT, ANTHROPIC_MESSAGES),
    (ANTHROPIC_MESSAGES, OPENAI_CHAT),
    (ANTHROPIC_MESSAGES, DEEPSEEK_CHAT),
    (DEEPSEEK_CHAT, ANTHROPIC_MESSAGES),
    (QWEN_XML, OPENAI_CHAT),
    (GEMINI, OPENAI_CHAT),
    (OPENAI_CHAT, GEMINI),
    (GEMINI, ANTHROPIC_MESSAGES),
    (ANTHROPIC_MESSAGES, GEMINI),
    (OPENAI_RESPONSES, OPENAI_CHAT),
    (OPENAI_CHAT, OPENAI_RESPONSES),
    (OPENAI_RESPONSES, ANTHROPIC_MESSAGES),
    (ANTHROPIC_MESSAGES, OPENAI_RESPONSES),
)
DIRECTIONS: frozenset[tuple[str, str, str]] = frozenset(
    (kind, source, target) for source, target in _PAIRS for kind in PAYLOAD_KINDS
)

RequestStep = Callable[[Conversation], Conversation]
ResponseStep = Callable[[Response], Response]


class ReferenceAdapter:
    """toolwire's reference converter (see the package docstring for its choices)."""

    name = "reference"
    version = __version__

    def __init__(self, tools: Iterable[ToolDef | Mapping[str, Any]] | None = None) -> None:
        self._tools: tuple[ToolDef, ...] | None = None if tools is None else _tool_defs(tools)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return DIRECTIONS

    @property
    def tools(self) -> tuple[ToolDef, ...] | None:
        return self._tools

    def with_tools(self, tools: Iterable[ToolDef | Mapping[str, Any]] | None) -> ReferenceAdapter:
        """A copy that types Qwen XML values with ``tools`` (ToolDefs or openai-chat
        ``tools[]`` entries)."""
        return ReferenceAdapter(tools)

    def with_request(self, request: Any, dialect: str = QWEN_XML) -> ReferenceAdapter:
        """A copy bound to the tools of ``request`` (a request body in ``dialect``)."""
        return ReferenceAdapter(get_codec(dialect).parse_request(request).tools)

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        """Convert one payload. ``request`` (optional, docs/adapters.md) is the
        request a response answers: its tools type Qwen XML values."""
        self._check(kind, source, target)
        if request is not None and kind != "request" and source == QWEN_XML:
            return self.with_request(request, source).convert(payload, kind, source, target)
        if kind == "request":
            conversation = self._parse_request(payload, source)
            # A tool choice restricted to several tools has no neutral form:
            # resolved around the steps (allowed_tools.py).
            conversation, restriction = allowed_tools.resolve(conversation, target)
            converted = self._request_step(source, target)(conversation)
            converted = allowed_tools.restore(converted, restriction)
            return get_codec(target).render_request(converted)
        if kind == "response":
            response = self._parse_response(payload, source)
            return get_codec(target).render_response(self._response_step(source, target)(response))
        transcript = self._parse_stream(payload, source)
        converted_response = self._response_step(source, target)(transcript.response)
        return events_out(get_codec(target).render_stream(converted_response))

    def id_mapping(
        self, payload: Any, kind: PayloadKind, source: str, target: str
    ) -> dict[str, str]:
        """Source id -> output id for every call id this conversion changes."""
        self._check(kind, source, target)
        if source == QWEN_XML:
            return {}
        if kind == "request":
            conversation = get_codec(source).parse_request(payload)
            blocks = [b for turn in conversation.turns for b in turn.blocks]
        else:
            response = (
                self._parse_response(payload, source)
                if kind == "response"
                else self._parse_stream(payload, source).response
            )
            blocks = [b for choice in response.choices for b in choice.message.blocks]
        if GEMINI in (source, target):
            return gemini_steps.id_mapping(blocks, source, target)
        ids = [b.id for b in blocks if isinstance(b, ToolCall)]
        ids += [b.call_id for b in blocks if isinstance(b, ToolResult)]
        return changed_ids(ids, to_anthropic=target == ANTHROPIC_MESSAGES)

    # --- steps -----------------------------------------------------------------

    def _check(self, kind: str, source: str, target: str) -> None:
        if (kind, source, target) in DIRECTIONS:
            return
        supported = sorted(f"{k}:{s}->{t}" for k, s, t in DIRECTIONS if s == source)
        raise ConversionError(
            f"the reference adapter does not convert {kind} {source} -> {target}",
            hint=f"supported from {source}: {', '.join(supported) or 'none'}",
        )

    def _parse_request(self, payload: Any, source: str) -> Conversation:
        return get_codec(source).parse_request(payload)

    def _parse_response(self, payload: Any, source: str) -> Response:
        if source == QWEN_XML:
            return QWEN_XML_CODEC.parse_response(payload, self._tools)
        return get_codec(source).parse_response(payload)

    def _parse_stream(self, payload: Any, source: str) -> StreamTranscript:
        events = events_in(payload)
        if source == QWEN_XML:
            return QWEN_XML_CODEC.parse_stream(events, self._tools)
        return get_codec(source).parse_stream(events)

    def _request_step(self, source: str, target: str) -> RequestStep:
        if GEMINI in (source, target):
            return gemini_steps.request_step(source, target)
        if OPENAI_RESPONSES in (source, target):
            return _responses_request_step(source, target)
        if source == QWEN_XML:
            return qwen.conversation_to_openai
        if target == ANTHROPIC_MESSAGES:
            return to_anthropic.conversation_to_anthropic
        return lambda conversation: to_openai.conversation_to_openai(conversation, target)

    def _response_step(self, source: str, target: str) -> ResponseStep:
        if GEMINI in (source, target):
            return gemini_steps.response_step(source, target)
        if OPENAI_RESPONSES in (source, target):
            return _responses_response_step(source, target)
        if source == QWEN_XML:
            tools = self._tools
            return lambda response: qwen.response_to_openai(response, tools)
        if target == ANTHROPIC_MESSAGES:
            return to_anthropic.response_to_anthropic
        return lambda response: to_openai.response_to_openai(response, target)


def _responses_request_step(source: str, target: str) -> RequestStep:
    # Chat Completions is the hub: Responses <-> Anthropic goes through it.
    if source == OPENAI_RESPONSES and target == OPENAI_CHAT:
        return from_responses.conversation_to_chat
    if source == OPENAI_RESPONSES:
        return lambda c: order.conversation_in_order(
            c, to_anthropic.conversation_to_anthropic(from_responses.conversation_to_chat(c))
        )
    if source == OPENAI_CHAT:
        return to_responses.conversation_to_responses
    return lambda c: order.conversation_in_order(
        c, to_responses.conversation_to_responses(to_openai.conversation_to_openai(c, OPENAI_CHAT))
    )


def _responses_response_step(source: str, target: str) -> ResponseStep:
    if source == OPENAI_RESPONSES and target == OPENAI_CHAT:
        return from_responses.response_to_chat
    if source == OPENAI_RESPONSES:
        return lambda r: order.response_in_order(
            r, to_anthropic.response_to_anthropic(from_responses.response_to_chat(r))
        )
    if source == OPENAI_CHAT:
        return to_responses.response_to_responses
    return lambda r: order.response_in_order(
        r, to_responses.response_to_responses(to_openai.response_to_openai(r, OPENAI_CHAT))
    )


def _tool_defs(tools: Iterable[ToolDef | Mapping[str, Any]]) -> tuple[ToolDef, ...]:
    defs: list[ToolDef] = []
    for position, tool in enumerate(tools):
        defs.append(tool if isinstance(tool, ToolDef) else parse_tool(tool, f"tools[{position}]"))
    return tuple(defs)
