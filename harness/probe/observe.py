"""Reading one answer: which format the calls came in, and what they say.

Every answer is read by the project's own codecs: the dialect's codec for a
JSON body (``parse_response``) or an event stream (``toolwire.harness.sse`` then
``parse_stream``, which reassembles the fragments). Structured calls are
Anthropic ``tool_use`` blocks or OpenAI ``tool_calls``; when there are none,
the text is searched for calls written as text (``textcalls``: Qwen XML,
fed to the incremental parser fragment by fragment for streams, then JSON).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    Response,
    SSEEvent,
    ThinkingBlock,
    ToolCall,
)
from toolwire.harness.probe.textcalls import text_calls_from_fragments
from toolwire.harness.probe.tools import schema_failures, tool_defs
from toolwire.harness.probe.transport import Exchange
from toolwire.harness.sse import parse_sse

ANTHROPIC = "anthropic"
OPENAI = "openai"
GEMINI_CALLS = "gemini"
# Formats whose calls the API returns as structured objects, answered in kind.
STRUCTURED = (ANTHROPIC, OPENAI, GEMINI_CALLS)
NONE = "none"
_TEXT_PREVIEW = 80


@dataclass(frozen=True)
class Call:
    """One tool call the model made, in whatever format."""

    name: str | None
    arguments: Any  # the parsed arguments; None when they could not be read
    id: str | None = None
    problems: tuple[str, ...] = ()  # unreadable arguments, broken markup
    executable: bool = True

    def failures(self) -> list[str]:
        """Its problems, then what the tool's JSON Schema says about it."""
        if not self.executable:
            return list(self.problems) or [f"{self.name}: the call cannot be executed"]
        return [*self.problems, *schema_failures(self.name, self.arguments)]


@dataclass(frozen=True)
class Observation:
    """What one exchange showed. ``response`` is the canonical answer (None
    when the endpoint answered an error or something unreadable)."""

    exchange: Exchange
    format: str  # anthropic | openai | xml | json-text | none
    parser: str | None
    calls: tuple[Call, ...] = ()
    text: str = ""
    response: Response | None = None
    has_reasoning: bool = False
    problems: tuple[str, ...] = field(default_factory=tuple)  # stream issues, parse errors

    @property
    def ok(self) -> bool:
        return self.exchange.ok and self.response is not None

    def calls_named(self, name: str) -> list[Call]:
        return [call for call in self.calls if call.name == name]

    def preview(self) -> str:
        """The answer's text, on one line and short, for reasons."""
        text = " ".join(self.text.split())
        return text if len(text) <= _TEXT_PREVIEW else f"{text[: _TEXT_PREVIEW - 1]}…"


def observe(dialect: str, exchange: Exchange) -> Observation:
    """Read ``exchange``'s answer with the dialect's codec."""
    if not exchange.ok:
        return Observation(exchange, NONE, None)
    codec = get_codec(dialect)
    stream = bool(exchange.request_body.get("stream"))
    parser_name = dialect.replace("-", "_")
    try:
        if exchange.is_stream:
            events = parse_sse(exchange.response_text)
            transcript = codec.parse_stream(events)
            response = transcript.response
            problems = tuple(f"stream {i.code}: {i.message}" for i in transcript.issues)
            fragments: Sequence[str] = tuple(_text_deltas(dialect, events))
            parser_name += " stream"
        else:
            if stream:
                problems = ("asked to stream, the endpoint answered " + exchange.content_type,)
            else:
                problems = ()
            response = codec.parse_response(json_text.loads(exchange.response_text))
            fragments = ()
    except (ToolwireError, ValueError) as error:
        reason = f"the answer does not parse as {dialect}: {error}"
        return Observation(exchange, NONE, None, problems=(reason,))
    if not response.choices:
        return Observation(exchange, NONE, None, response=response, problems=("no choices",))
    return _read_turn(dialect, exchange, response, parser_name, fragments, problems)


def _read_turn(
    dialect: str,
    exchange: Exchange,
    response: Response,
    parser_name: str,
    fragments: Sequence[str],
    problems: tuple[str, ...],
) -> Observation:
    turn = response.message
    # Gemini's reasoning to replay is the thought signature of its calls.
    reasoning = any(
        isinstance(block, ThinkingBlock) or (isinstance(block, ToolCall) and bool(block.signature))
        for block in turn.blocks
    )
    structured = turn.tool_calls
    if structured:
        found = {ANTHROPIC_MESSAGES: ANTHROPIC, GEMINI: GEMINI_CALLS}.get(dialect, OPENAI)
        calls = tuple(_structured(call) for call in structured)
        return Observation(
            exchange, found, parser_name, calls, turn.text, response, reasoning, problems
        )
    text = turn.text
    in_text = text_calls_from_fragments(fragments or (text,), tool_defs())
    if in_text.format is None:
        return Observation(exchange, NONE, None, (), text, response, reasoning, problems)
    parser = in_text.parser if not fragments else f"{in_text.parser} incremental"
    calls = tuple(
        Call(c.name, c.arguments, None, c.problems, executable=not c.rejected)
        for c in in_text.calls
    )
    return Observation(
        exchange, in_text.format, parser, calls, in_text.text, response, reasoning, problems
    )


def _structured(call: ToolCall) -> Call:
    if call.arguments_error is not None and call.arguments is None:
        return Call(call.name, None, call.id, (f"arguments: {call.arguments_error}",), False)
    problems = (f"arguments: {call.arguments_error}",) if call.arguments_error else ()
    return Call(call.name, call.arguments, call.id, problems)


def _gemini_texts(chunk: dict[str, Any]) -> Iterator[str]:
    """The answer text (not thoughts) of one Gemini stream chunk."""
    for candidate in chunk.get("candidates") or ():
        content = candidate.get("content") if isinstance(candidate, dict) else None
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else ():
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str) and not part.get("thought"):
                yield text


def _text_deltas(dialect: str, events: Sequence[SSEEvent]) -> Iterator[str]:
    """The text fragments of a stream in arrival order (for the incremental parser)."""
    for event in events:
        try:
            data = json_text.loads(event.data)
        except ValueError:
            continue  # [DONE] and other sentinels
        if not isinstance(data, dict):
            continue
        if dialect == GEMINI:
            yield from _gemini_texts(data)
        if dialect == OPENAI_RESPONSES:
            delta = data.get("delta")
            if data.get("type") == "response.output_text.delta" and isinstance(delta, str):
                yield delta
            continue
        if dialect == ANTHROPIC_MESSAGES:
            delta = data.get("delta")
            is_text = isinstance(delta, dict) and delta.get("type") == "text_delta"
            if data.get("type") == "content_block_delta" and is_text:
                text = delta.get("text") if isinstance(delta, dict) else None
                if isinstance(text, str):
                    yield text
            continue
        for choice in data.get("choices") or ():
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if isinstance(delta, dict) and isinstance(delta.get("content"), str):
                yield delta["content"]
