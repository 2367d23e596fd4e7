"""JSON paths into a payload for a turn or block of the canonical model.

The model keeps wire order, so each dialect's layout gives the path back, and
a path names the payload's own field (a reader looks for it there):
anthropic-messages blocks are ``messages[i].content[j]``; in openai-chat an
assistant message's calls are ``messages[i].tool_calls[k]``, its reasoning the
``reasoning_content`` field, and a tool message is one result; gemini turns
are ``contents[i]``, their parts ``contents[i].parts[j]``
(``candidates[c].content.parts[j]`` in a response); an openai-responses turn
starts at its first item ``input[i]`` (``output[i]`` in a response), a text
part is ``input[i].content[k]``.
"""

from __future__ import annotations

from toolwire.conformance.readings.memo import by_identity
from toolwire.conformance.readings.timeline import timeline_of
from toolwire.harness.dialects.openai_responses.layout import item_position
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    Conversation,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)


def turn_path(index: int, conversation: Conversation | None = None) -> str:
    """The path of turn ``index`` in ``conversation``'s own field: ``contents[i]``
    in gemini, the turn's first item ``input[i]`` in openai-responses (its turns
    group items), ``messages[i]`` elsewhere (and without a conversation)."""
    if conversation is not None and conversation.dialect == GEMINI:
        return f"contents[{index}]"
    if conversation is not None and conversation.dialect == OPENAI_RESPONSES:
        return f"input[{item_position(conversation.turns, index, 0)[0]}]"
    return f"messages[{index}]"


def system_path(dialect: str) -> str:
    """Where a dialect's top-level system prompt lives."""
    return {GEMINI: "systemInstruction", OPENAI_RESPONSES: "instructions"}.get(dialect, "system")


def response_message_path(dialect: str, choice: int = 0) -> str:
    """Where a response's one assistant message lives."""
    if dialect == ANTHROPIC_MESSAGES:
        return "content"
    if dialect == GEMINI:
        return f"candidates[{choice}].content"
    if dialect == OPENAI_RESPONSES:
        return "output"
    return f"choices[{choice}].message"


def _responses_path(root: str, turns: tuple[Turn, ...], turn_index: int, block_index: int) -> str:
    # openai-responses turns group items (harness/dialects/openai_responses/items.py).
    item, inner = item_position(turns, turn_index, block_index)
    return f"{root}[{item}]" + (f".content[{inner}]" if inner is not None else "")


def block_path(conversation: Conversation, turn_index: int, block_index: int) -> str:
    turn = conversation.turns[turn_index]
    if conversation.dialect == OPENAI_RESPONSES:
        return _responses_path("input", conversation.turns, turn_index, block_index)
    base = turn_path(turn_index, conversation)
    if conversation.dialect == GEMINI:
        return f"{base}.parts[{block_index}]"
    if conversation.dialect == ANTHROPIC_MESSAGES:
        if turn.content_form == "string":
            return f"{base}.content"
        return f"{base}.content[{block_index}]"
    return base + _openai_block_suffix(turn, block_index)


# The paths of every call and result site (in timeline order) are read by
# several checks per conversation: built once (toolwire.conformance.readings.memo).
@by_identity
def call_paths(conversation: Conversation) -> tuple[str, ...]:
    """The path of each of ``timeline_of(conversation).calls``."""
    return tuple(
        block_path(conversation, site.turn_index, site.block_index)
        for site in timeline_of(conversation).calls
    )


@by_identity
def result_paths(conversation: Conversation) -> tuple[str, ...]:
    """The path of each of ``timeline_of(conversation).results``."""
    return tuple(
        block_path(conversation, site.turn_index, site.block_index)
        for site in timeline_of(conversation).results
    )


def response_block_path(dialect: str, turn: Turn, block_index: int, choice: int = 0) -> str:
    if dialect == OPENAI_RESPONSES:
        return _responses_path("output", (turn,), 0, block_index)
    if dialect == "anthropic-messages":
        return f"content[{block_index}]"
    if dialect == "gemini":
        return f"candidates[{choice}].content.parts[{block_index}]"
    return f"choices[{choice}].message" + _openai_block_suffix(turn, block_index)


def _openai_block_suffix(turn: Turn, block_index: int) -> str:
    block = turn.blocks[block_index]
    if isinstance(block, ToolCall):
        position = sum(1 for b in turn.blocks[:block_index] if isinstance(b, ToolCall))
        return f".tool_calls[{position}]"
    if isinstance(block, ThinkingBlock):
        return f".{block.origin}"
    if isinstance(block, ToolResult):
        return ""
    if isinstance(block, TextBlock | OpaqueBlock) and turn.content_form == "blocks":
        position = sum(
            1 for b in turn.blocks[:block_index] if isinstance(b, TextBlock | OpaqueBlock)
        )
        return f".content[{position}]"
    return ".content"
