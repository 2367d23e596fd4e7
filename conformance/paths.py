"""JSON paths into a payload for a turn or block of the canonical model.

The model keeps wire order, so each dialect's layout gives the path back:
anthropic-messages blocks are ``messages[i].content[j]``; in openai-chat an
assistant message's calls are ``messages[i].tool_calls[k]``, its reasoning the
``reasoning_content`` field, and a tool message is one result; gemini parts
are ``contents[i].parts[j]`` (``candidates[c].content.parts[j]`` in a
response).
``reasoning_content`` field, and a tool message is one result; an
openai-responses block is ``input[i]`` / ``output[i]`` (its item), a text
part ``input[i].content[k]``.
"""

from __future__ import annotations

from toolwire.conformance.memo import by_identity
from toolwire.conformance.timeline import timeline_of
from toolwire.harness.dialects.openai_responses.items import item_position
from toolwire.harness.model import (
    OPENAI_RESPONSES,
    Conversation,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)


def turn_path(index: int) -> str:
    return f"messages[{index}]"


def _responses_path(root: str, turns: tuple[Turn, ...], turn_index: int, block_index: int) -> str:
    # openai-responses turns group items (harness/dialects/openai_responses/items.py).
    item, inner = item_position(turns, turn_index, block_index)
    return f"{root}[{item}]" + (f".content[{inner}]" if inner is not None else "")


def block_path(conversation: Conversation, turn_index: int, block_index: int) -> str:
    turn = conversation.turns[turn_index]
    if conversation.dialect == OPENAI_RESPONSES:
        return _responses_path("input", conversation.turns, turn_index, block_index)
    base = turn_path(turn_index)
    if conversation.dialect == "gemini":
        return f"contents[{turn_index}].parts[{block_index}]"
    if conversation.dialect == "anthropic-messages":
        if turn.content_form == "string":
            return f"{base}.content"
        return f"{base}.content[{block_index}]"
    return base + _openai_block_suffix(turn, block_index)


# The paths of every call and result site (in timeline order) are read by
# several checks per conversation: built once (toolwire.conformance.memo).
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
