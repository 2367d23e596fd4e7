"""Which blocks each Responses item of an assistant turn holds, and where a block is written.

An assistant turn is one run of items (message, function_call, reasoning,
hosted-tool call). ``items.py`` records the run it read under the private
``LAYOUT`` key; rendering replays it while it still fits the turn's blocks,
and the rules' JSON paths ask ``item_position`` where a block was written.
Both need the same layout, so it lives here, apart from parsing and rendering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.dialects.openai_responses.content import CONTENT_PART_TYPES
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Block,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
)

LAYOUT = "_items"


def _fits(entry: Mapping[str, Any], blocks: Sequence[Block]) -> bool:
    kind = entry.get("kind")
    if kind == "function_call":
        return len(blocks) == 1 and isinstance(blocks[0], ToolCall)
    if kind == "reasoning":
        return len(blocks) == 1 and isinstance(blocks[0], ThinkingBlock)
    if kind == "item":
        return len(blocks) == 1 and isinstance(blocks[0], OpaqueBlock)
    return kind == "message" and all(_is_content(b) for b in blocks)


def _is_content(block: Block) -> bool:
    return isinstance(block, TextBlock) or (
        isinstance(block, OpaqueBlock) and block.type in CONTENT_PART_TYPES
    )


def item_layout(turn: Turn) -> list[tuple[Mapping[str, Any], tuple[Block, ...]]]:
    """The turn's recorded item layout when it still fits its blocks, else the natural one."""
    recorded = turn.extra.get(LAYOUT)
    if isinstance(recorded, tuple):
        pieces, position = [], 0
        for entry in recorded:
            size = entry.get("size") if isinstance(entry, Mapping) else None
            if not isinstance(size, int):
                break
            blocks = turn.blocks[position : position + size]
            if len(blocks) != size or not _fits(entry, blocks):
                break
            pieces.append((entry, blocks))
            position += size
        else:
            if position == len(turn.blocks):
                return pieces
    natural: list[tuple[Mapping[str, Any], tuple[Block, ...]]] = []
    run: list[Block] = []
    for block in turn.blocks:
        if _is_content(block):
            run.append(block)
            continue
        if run:
            natural.append(({"kind": "message"}, tuple(run)))
            run = []
        kind = {ToolCall: "function_call", ThinkingBlock: "reasoning", OpaqueBlock: "item"}.get(
            type(block)
        )
        if kind is None:
            raise WireFormatError("", "an assistant turn cannot hold a tool result")
        natural.append(({"kind": kind}, (block,)))
    if run:
        natural.append(({"kind": "message"}, tuple(run)))
    return natural


def _turn_items(turn: Turn) -> int:
    if turn.role == "assistant":
        return len(item_layout(turn))
    if turn.role == "tool":
        return len(turn.tool_results)
    return 1


def item_position(
    turns: Sequence[Turn], turn_index: int, block_index: int
) -> tuple[int, int | None]:
    """(index of the item holding block ``block_index`` of turn ``turn_index``
    in the rendered item list, the block's index in that item's ``content``
    or ``None`` when the item is the block itself)."""
    offset = sum(_turn_items(turn) for turn in turns[:turn_index])
    turn = turns[turn_index]
    if turn.role == "tool":
        return offset + block_index, None
    if turn.role != "assistant":
        return offset, block_index if turn.content_form == "blocks" else None
    position = 0
    for number, (entry, blocks) in enumerate(item_layout(turn)):
        if block_index < position + len(blocks):
            inner = block_index - position
            return offset + number, inner if entry.get("kind") == "message" else None
        position += len(blocks)
    return offset, None
