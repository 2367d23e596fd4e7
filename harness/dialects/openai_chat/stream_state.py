"""One choice of a Chat Completions stream as it is reassembled, and the ``Choice`` it makes.

``stream.py`` reads the chunks and reports what is wrong with them; the
states here only accumulate the pieces (content, reasoning, tool-call
fragments by index) and, at the end, build the blocks exactly as the
non-streamed response would parse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.harness.dialects.openai_chat.common import decode_arguments, parse_finish_reason
from toolwire.harness.dialects.openai_chat.messages import REASONING_FIELDS
from toolwire.harness.dialects.partial_json import CUT_STOP_REASONS, cut_off_value
from toolwire.harness.model import Block, Choice, TextBlock, ThinkingBlock, ToolCall, Turn


@dataclass
class CallState:
    index: int
    id: str | None = None
    name: str | None = None
    arguments: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    function_extra: dict[str, Any] = field(default_factory=dict)

    def to_call(self, finish_reason: str | None = None) -> ToolCall:
        extra = dict(self.extra)
        if self.function_extra:
            extra["function"] = dict(self.function_extra)
        if self.arguments is None:
            return ToolCall(
                id=self.id,
                name=self.name,
                arguments=None,
                arguments_error="no arguments were streamed for this call",
                extra=extra,
            )
        raw = "".join(self.arguments)
        arguments, error = decode_arguments(raw)
        if error is not None and finish_reason in CUT_STOP_REASONS:
            # Cut off by the token limit: keep what was streamed, as the SDKs do.
            cut, value = cut_off_value(raw)
            if cut:
                arguments, error = value, None
        return ToolCall(self.id, self.name, arguments, raw, error, extra)


@dataclass
class ChoiceState:
    index: int
    role: str | None = None
    content: list[str] | None = None
    reasoning: dict[str, list[str]] = field(default_factory=dict)
    calls: list[CallState] = field(default_factory=list)
    current_call: dict[int, CallState] = field(default_factory=dict)
    finish_reason: str | None = None
    message_extra: dict[str, Any] = field(default_factory=dict)
    choice_extra: dict[str, Any] = field(default_factory=dict)

    def to_choice(self) -> Choice:
        blocks: list[Block] = [
            ThinkingBlock(origin=origin, text="".join(self.reasoning[origin]))
            for origin in REASONING_FIELDS
            if origin in self.reasoning
        ]
        if self.content is not None:
            blocks.append(TextBlock("".join(self.content)))
        # Calls in index order; a call split off by an index collision stays
        # right after its sibling (the sort is stable).
        calls = sorted(self.calls, key=lambda c: c.index)
        # Only the call still streaming when the limit struck can have been cut.
        last = len(calls) - 1
        blocks.extend(
            c.to_call(self.finish_reason if n == last else None) for n, c in enumerate(calls)
        )
        message = Turn(
            role=self.role or "assistant",
            blocks=tuple(blocks),
            content_form="string" if self.content is not None else "null",
            extra=dict(self.message_extra),
        )
        return Choice(
            index=self.index,
            message=message,
            stop_reason=parse_finish_reason(self.finish_reason),
            extra=dict(self.choice_extra),
        )
