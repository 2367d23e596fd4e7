"""The canonical model: one neutral representation every dialect parses into.

It is the harness's oracle, so it never invents or drops a field:

* every object keeps ``extra``: the fields its dialect carried that the model
  does not name, so rendering returns them unchanged;
* every value a converter could alter keeps its raw form beside the parsed one
  (``ToolCall.raw_arguments``, ``StopReason.raw``, ``Usage.raw``, the
  ``*_form`` fields that say whether content was a string, a list, null or
  absent).

Turns keep their dialect's roles and structure: an openai-chat ``tool``
message is a ``Turn(role="tool")`` holding one ``ToolResult``; an
anthropic-messages result is a ``ToolResult`` block inside a ``user`` turn.
Mapping one structure onto the other is a converter's job, not the parser's.

Everything here is a frozen dataclass; ``extra`` mappings are read-only by
convention (never mutate a parsed payload).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

JsonValue: TypeAlias = Any
JsonObject: TypeAlias = Mapping[str, Any]

OPENAI_CHAT = "openai-chat"
ANTHROPIC_MESSAGES = "anthropic-messages"
DEEPSEEK_CHAT = "deepseek-chat"
QWEN_XML = "qwen-xml"
OPENAI_RESPONSES = "openai-responses"
GEMINI = "gemini"
DIALECTS: tuple[str, ...] = (
    OPENAI_CHAT,
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    QWEN_XML,
    OPENAI_RESPONSES,
    GEMINI,
)

PayloadKind: TypeAlias = Literal["request", "response", "stream"]
PAYLOAD_KINDS: tuple[PayloadKind, ...] = ("request", "response", "stream")

# How a dialect carried a content field: a plain string, a list of parts or
# blocks, an explicit JSON null, or no key at all. Converters get this wrong
# (null vs "" vs missing), so the model remembers it.
ContentForm: TypeAlias = Literal["string", "blocks", "null", "absent"]

# Where a piece of reasoning came from: an Anthropic ``thinking`` block, an
# Anthropic ``redacted_thinking`` block, the DeepSeek-style
# ``reasoning_content`` field, or the ``reasoning`` field some OpenAI-compatible
# servers use, an OpenAI Responses ``reasoning`` item (``reasoning_item``), or
# a Gemini ``thought: true`` part.
ThinkingOrigin: TypeAlias = Literal[
    "thinking",
    "redacted_thinking",
    "reasoning_content",
    "reasoning",
    "reasoning_item",
    "thought",
]

# A dialect-neutral stop reason. openai-chat ``stop`` maps to ``end_turn``
# (it also covers stop sequences: the rules treat that pair as equivalent).
CanonicalStop: TypeAlias = Literal[
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "content_filter",
    "refusal",
    "pause_turn",
    "unknown",
]

EMPTY: JsonObject = {}


@dataclass(frozen=True)
class TextBlock:
    """Visible text. ``extra`` keeps e.g. ``cache_control`` or ``citations``."""

    text: str
    extra: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class ThinkingBlock:
    """Model reasoning that may have to be replayed unchanged.

    ``text`` is the visible reasoning (Anthropic ``thinking``, DeepSeek
    ``reasoning_content``), ``signature`` the Anthropic signature,
    ``redacted_data`` the opaque payload of a ``redacted_thinking`` block.
    A field the dialect did not carry is ``None``; an empty string is kept as
    ``""`` (DeepSeek accepts ``reasoning_content: ""`` on tool-call turns).

    An openai-responses ``reasoning`` item has ``text`` = its summary texts
    joined (``None`` when it has no summary), ``encrypted_content`` the
    opaque state OpenAI returns with ``include: ["reasoning.encrypted_content"]``
    and ``item_id`` its ``rs_...`` id; the item's other fields stay in ``extra``.
    """

    origin: ThinkingOrigin
    text: str | None = None
    signature: str | None = None
    redacted_data: str | None = None
    extra: JsonObject = field(default_factory=dict)
    encrypted_content: str | None = None
    item_id: str | None = None


@dataclass(frozen=True)
class ToolCall:
    """A request by the model to run a tool.

    ``arguments`` is the parsed value (normally a JSON object). When the
    dialect carries arguments as text (openai-chat ``function.arguments``, the
    Qwen XML markup), ``raw_arguments`` holds that text exactly; it is ``None``
    when the dialect carries an object (anthropic ``input``). When the text is
    not valid JSON, ``arguments`` is ``None`` and ``arguments_error`` says why;
    ``arguments_error`` is also set, with ``arguments`` kept, when a dialect
    that carries text got another type (openai-chat arguments sent as an object).
    Rendering uses ``raw_arguments`` when set, so the text round-trips byte
    for byte; a converter that builds a call leaves it ``None``.
    ``signature`` is the opaque ``thoughtSignature`` a Gemini ``functionCall``
    part carried (Gemini 3 refuses a replayed call without it).

    ``id`` is what results answer: for openai-responses the ``call_id``; the
    ``function_call`` item's own id (``fc_...``) is ``item_id``.
    """

    id: str | None
    name: str | None
    arguments: JsonValue
    raw_arguments: str | None = None
    arguments_error: str | None = None
    extra: JsonObject = field(default_factory=dict)
    signature: str | None = None
    item_id: str | None = None


@dataclass(frozen=True)
class ToolResult:
    """The answer to a tool call.

    ``content`` holds the result as blocks (a string result is one
    ``TextBlock``); ``content_form`` says how the dialect carried it.
    ``is_error`` is ``None`` when the payload said nothing about errors.
    ``name`` is the function a result names (Gemini ``functionResponse.name``;
    other dialects link results by id only).
    """

    call_id: str | None
    content: tuple[Block, ...]
    content_form: ContentForm = "string"
    is_error: bool | None = None
    extra: JsonObject = field(default_factory=dict)
    name: str | None = None


@dataclass(frozen=True)
class OpaqueBlock:
    """A block the model does not interpret (image, document, server tool
    use, web search result, ...): kept whole so it round-trips."""

    type: str
    raw: JsonObject


Block: TypeAlias = TextBlock | ThinkingBlock | ToolCall | ToolResult | OpaqueBlock


@dataclass(frozen=True)
class Turn:
    """One message, in its dialect's own role vocabulary
    (``system``, ``developer``, ``user``, ``assistant``, ``tool``).

    ``blocks`` are in wire order. ``content_form`` says how the message's
    ``content`` field was carried; ``extra`` keeps the message's other fields
    (``name``, ``refusal``, ``annotations``, ...).
    """

    role: str
    blocks: tuple[Block, ...]
    content_form: ContentForm = "blocks"
    extra: JsonObject = field(default_factory=dict)

    # List comprehensions, not generators: cheaper for a turn's few blocks,
    # and these are read often.
    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return tuple([b for b in self.blocks if isinstance(b, ToolCall)])

    @property
    def tool_results(self) -> tuple[ToolResult, ...]:
        return tuple([b for b in self.blocks if isinstance(b, ToolResult)])

    @property
    def text(self) -> str:
        """The turn's visible text blocks joined (no separator)."""
        return "".join([b.text for b in self.blocks if isinstance(b, TextBlock)])


@dataclass(frozen=True)
class ToolDef:
    """A tool offered to the model. ``kind`` is ``function`` for ordinary
    tools; server-side tools keep their own type (e.g. ``web_search_20250305``).
    ``parameters`` is the JSON Schema of the arguments."""

    name: str | None
    description: str | None = None
    parameters: JsonObject | None = None
    strict: bool | None = None
    kind: str = "function"
    extra: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class ToolChoice:
    """How the model may use tools. ``mode`` is neutral (anthropic ``any`` is
    ``required``); ``raw`` is the value exactly as carried."""

    mode: Literal["auto", "none", "required", "tool"]
    name: str | None = None
    disable_parallel: bool | None = None
    raw: JsonValue = None


@dataclass(frozen=True)
class StopReason:
    raw: str | None
    canonical: CanonicalStop


@dataclass(frozen=True)
class Usage:
    input_tokens: int | None = None
    output_tokens: int | None = None
    raw: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class Conversation:
    """A request: what a client sends to the model.

    ``system`` holds a top-level system prompt (anthropic-messages); dialects
    that carry system prompts as messages keep them in ``turns``.
    ``tools`` is ``None`` when the request had no ``tools`` key.
    ``extra`` keeps every other top-level field (max_tokens, temperature,
    thinking, stream_options, ...).
    """

    dialect: str
    turns: tuple[Turn, ...]
    model: str | None = None
    system: tuple[Block, ...] = ()
    system_form: ContentForm = "absent"
    tools: tuple[ToolDef, ...] | None = None
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    stream: bool | None = None
    extra: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    index: int
    message: Turn
    stop_reason: StopReason
    extra: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class Response:
    """A model's answer. anthropic-messages has exactly one choice."""

    dialect: str
    choices: tuple[Choice, ...]
    id: str | None = None
    model: str | None = None
    usage: Usage | None = None
    extra: JsonObject = field(default_factory=dict)

    @property
    def message(self) -> Turn:
        return self.choices[0].message

    @property
    def stop_reason(self) -> StopReason:
        return self.choices[0].stop_reason


@dataclass(frozen=True)
class SSEEvent:
    """One server-sent event as it appeared on the wire. ``data`` is the raw
    text of its ``data:`` lines joined by newlines."""

    data: str
    event: str | None = None
    id: str | None = None


@dataclass(frozen=True)
class StreamIssue:
    """Something the stream reassembler noticed that a rule may judge
    (a fragment for an unknown index, an event out of grammar, ...).
    ``event_index`` points into the transcript's events. Where two
    statements of one value disagree (a ``.done`` event and the deltas it
    closes), ``said`` is what the later statement says and ``built`` what the
    earlier ones built (None: that statement has none), each at most
    ``MAX_ISSUE_VALUE`` characters (cut in the middle, not yet redacted: the
    check that quotes them redacts)."""

    code: str
    message: str
    event_index: int | None = None
    said: str | None = None
    built: str | None = None


# The longest value a StreamIssue keeps of each statement it compares.
MAX_ISSUE_VALUE = 400


def issue_value(value: object) -> str | None:
    """A value a StreamIssue quotes, bounded: a string as it is, None as
    None (the statement has no value), anything else as compact JSON (repr
    when it is not JSON); the middle of a long one cut out."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError):
            text = repr(value)
    if len(text) > MAX_ISSUE_VALUE:
        keep = MAX_ISSUE_VALUE // 2 - 1
        text = f"{text[:keep]}…{text[-keep:]}"
    return text


@dataclass(frozen=True)
class StreamTranscript:
    """A streamed response: the events as sent, and the message they
    reassemble into."""

    dialect: str
    events: tuple[SSEEvent, ...]
    response: Response
    issues: tuple[StreamIssue, ...] = ()
