"""A dialect-neutral view of what a conversation *says*, for comparing across dialects.

Two payloads in different dialects are faithful to each other when their
semantic views are equal. The view keeps what the model and the tools said
(text, reasoning, calls, results, error flags, the system prompt) and drops
how each dialect lays it out:

* openai-chat ``tool`` messages become results in a user message, and
  consecutive messages of one role merge (Anthropic's API merges them too);
* an openai-chat error result is recognised by the documented convention in
  ``toolwire.conformance.readings.conventions``;
* the system prompt is one leading item whether it was a top-level field or
  ``system``/``developer`` messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from toolwire.conformance.readings.conventions import read_result
from toolwire.conformance.readings.memo import by_identity
from toolwire.conformance.readings.text import same_text
from toolwire.harness.model import (
    Block,
    Conversation,
    OpaqueBlock,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)

SemanticRole = Literal["system", "user", "assistant"]
_ROLE: dict[str, SemanticRole] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "tool": "user",
    "assistant": "assistant",
    "model": "assistant",
}


@dataclass(frozen=True)
class SemText:
    text: str


@dataclass(frozen=True)
class SemThinking:
    text: str | None
    signature: str | None
    redacted_data: str | None


@dataclass(frozen=True)
class SemCall:
    id: str | None
    name: str | None
    arguments: Any
    arguments_error: str | None


@dataclass(frozen=True)
class SemResult:
    call_id: str | None
    text: str
    is_error: bool
    # The function a Gemini result names: what pairs it with its call when
    # neither carries an id (``relabel_ids``). Not compared: the other
    # dialects' results name no function.
    name: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SemOpaque:
    type: str


SemItem = SemText | SemThinking | SemCall | SemResult | SemOpaque


@dataclass(frozen=True)
class SemMessage:
    role: SemanticRole
    items: tuple[SemItem, ...]
    # Indices of the wire turns merged into this message, for explanations.
    source_turns: tuple[int, ...]

    def of_type(self, kind: type[Any]) -> list[Any]:
        return [item for item in self.items if isinstance(item, kind)]


def result_text(result: ToolResult) -> str:
    return "".join([block.text for block in result.content if isinstance(block, TextBlock)])


def _add_items(items: list[SemItem], blocks: tuple[Block, ...], dialect: str) -> None:
    # One loop appending to the message being built: per-block helper calls
    # and generator layers were most of the cost of the view.
    for block in blocks:
        if isinstance(block, TextBlock):
            items.append(SemText(block.text))
        elif isinstance(block, ToolCall):
            items.append(SemCall(block.id, block.name, block.arguments, block.arguments_error))
        elif isinstance(block, ToolResult):
            is_error, text = read_result(result_text(block), block.is_error, dialect)
            items.append(SemResult(block.call_id, text, is_error, block.name))
        elif isinstance(block, ThinkingBlock):
            items.append(SemThinking(block.text, block.signature, block.redacted_data))
        elif isinstance(block, OpaqueBlock):
            items.append(SemOpaque(block.type))


def _turn_items(turn: Turn, dialect: str) -> tuple[SemItem, ...]:
    items: list[SemItem] = []
    _add_items(items, turn.blocks, dialect)
    return tuple(items)


@by_identity  # read by several checks per payload: built once (toolwire.conformance.readings.memo)
def semantic_conversation(conversation: Conversation) -> tuple[SemMessage, ...]:
    """The conversation as merged semantic messages, the system prompt first.

    Consecutive turns of one role are merged as they are read: gathering
    whole runs first keeps a run of thousands of tool messages linear."""
    dialect = conversation.dialect
    roles: list[SemanticRole] = []
    items: list[list[SemItem]] = []
    sources: list[list[int]] = []
    if conversation.system:
        roles.append("system")
        items.append(
            [SemText(block.text) for block in conversation.system if isinstance(block, TextBlock)]
        )
        sources.append([])
    for index, turn in enumerate(conversation.turns):
        role = _ROLE.get(turn.role, "user")
        if not roles or roles[-1] != role:
            roles.append(role)
            items.append([])
            sources.append([])
        _add_items(items[-1], turn.blocks, dialect)
        sources[-1].append(index)
    return tuple(
        SemMessage(role, tuple(run_items), tuple(run_sources))
        for role, run_items, run_sources in zip(roles, items, sources, strict=True)
    )


def semantic_message(response: Response, choice: int = 0) -> SemMessage:
    turn = response.choices[choice].message
    return SemMessage("assistant", _turn_items(turn, response.dialect), ())


def joined_text(message: SemMessage) -> str:
    """The message's visible text in one string, for explanations. Comparisons
    use toolwire.conformance.readings.text.same_text on the pieces instead."""
    return "".join(piece.text for piece in message.of_type(SemText))


# Dialects that carry reasoning only as text: no signature, no redacted data.
# openai-responses carries another provider's reasoning as summary text only
# (docs/conventions.md, "The Responses API").
_TEXT_ONLY_REASONING = frozenset({"openai-chat", "deepseek-chat", "qwen-xml", "openai-responses"})


@dataclass(frozen=True, eq=False)
class MessageSummary:
    """What one message says, by kind, in order within each kind. Comparing
    summaries ignores how a dialect interleaves kinds (openai-chat cannot put
    text after a call; ordering.block_order judges that separately) and the
    separators converters put between text blocks (toolwire.conformance.readings.text)."""

    role: SemanticRole
    texts: tuple[str, ...]
    thinking: tuple[SemThinking, ...]
    calls: tuple[SemCall, ...]
    results: tuple[SemResult, ...]
    opaque: tuple[SemOpaque, ...]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MessageSummary):
            return NotImplemented
        return (self.role, self.thinking, self.calls, self.results, self.opaque) == (
            other.role,
            other.thinking,
            other.calls,
            other.results,
            other.opaque,
        ) and same_text(self.texts, other.texts)

    __hash__ = None  # type: ignore[assignment]


def _across_gemini(dialects: tuple[str, ...]) -> bool:
    """Between gemini and another dialect no signature survives: a Gemini
    ``thoughtSignature`` is Google's, an Anthropic signature or redacted block
    Anthropic's, and neither provider takes the other's (docs/conventions.md,
    "Gemini"; https://ai.google.dev/gemini-api/docs/thought-signatures)."""
    return "gemini" in dialects and len(set(dialects)) > 1


def comparable(message: SemMessage, *dialects: str) -> MessageSummary:
    """The message as it can survive a trip through ``dialects``: signatures
    and redacted thinking dropped when one of them carries reasoning as text
    only, or between gemini and another dialect (docs/conventions.md)."""
    thinking: tuple[SemThinking, ...] = tuple(message.of_type(SemThinking))
    if _TEXT_ONLY_REASONING.intersection(dialects) or _across_gemini(dialects):
        thinking = tuple(
            SemThinking(item.text, None, None) for item in thinking if item.text is not None
        )
    return MessageSummary(
        role=message.role,
        texts=tuple(piece.text for piece in message.of_type(SemText)),
        thinking=thinking,
        calls=tuple(message.of_type(SemCall)),
        results=tuple(message.of_type(SemResult)),
        opaque=tuple(message.of_type(SemOpaque)),
    )


def relabel_ids(summaries: list[MessageSummary]) -> list[MessageSummary]:
    """Replace call ids by their order of first appearance (``#1``, ``#2``...).

    Twins in two dialects use each dialect's own id format; what must agree
    is which result answers which call, not the ids' spelling.

    Gemini calls need not carry an id (none before Gemini 3): each call
    without one is a call of its own, and a result without an id answers the
    first such call of its name not yet answered, else the first one left
    (https://ai.google.dev/gemini-api/docs/function-calling; the pairing of
    ``toolwire.conformance.readings.gemini_pairs``).
    """
    labels: dict[str | None, str] = {}
    count = 0
    open_calls: list[tuple[str | None, str]] = []  # id-less calls: (name, label)

    def fresh() -> str:
        nonlocal count
        count += 1
        return f"#{count}"

    def label(call_id: str) -> str:
        if call_id not in labels:
            labels[call_id] = fresh()
        return labels[call_id]

    def call_label(call: SemCall) -> str:
        if call.id is not None:
            return label(call.id)
        new = fresh()
        open_calls.append((call.name, new))
        return new

    def result_label(result: SemResult) -> str:
        if result.call_id is not None:
            return label(result.call_id)
        match = next((c for c in open_calls if c[0] == result.name), None)
        match = match or (open_calls[0] if open_calls else None)
        if match is None:
            return fresh()
        open_calls.remove(match)
        return match[1]

    relabelled = []
    for summary in summaries:
        calls = tuple(
            SemCall(call_label(c), c.name, c.arguments, c.arguments_error) for c in summary.calls
        )
        results = tuple(
            SemResult(result_label(r), r.text, r.is_error, r.name) for r in summary.results
        )
        relabelled.append(
            MessageSummary(
                summary.role, summary.texts, summary.thinking, calls, results, summary.opaque
            )
        )
    return relabelled
