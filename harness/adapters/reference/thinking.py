"""Reasoning between anthropic-messages thinking blocks and ``reasoning_content``.

docs/conventions.md ("Thinking in deepseek-chat"):

* anthropic -> deepseek-chat: the text of a turn's ``thinking`` blocks becomes
  its ``reasoning_content`` (several blocks joined with no separator);
  signatures and ``redacted_thinking`` data are dropped (DeepSeek cannot carry
  them). A turn whose only reasoning was redacted gets ``reasoning_content: ""``:
  it had reasoning, and DeepSeek needs the field on tool-call turns.
* deepseek-chat -> anthropic: ``reasoning_content`` becomes a ``thinking``
  block placed first, with ``signature: ""``: the documented block shape
  requires the field, and no real signature exists. An empty ``reasoning_content``
  carries no reasoning and becomes no block (an empty thinking block says
  nothing and Anthropic would reject it).

DeepSeek thinking mode requires ``reasoning_content`` on every assistant
message of a stretch (between two user messages) with a tool call, in all
later requests (https://api-docs.deepseek.com/guides/thinking_mode); a
turn with no reasoning at all in the source gets ``""`` there, the value a
real accepted request carries (WIRE.md 1.3), never invented text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from toolwire.harness.model import Block, ThinkingBlock, ToolCall, Turn


def _thinking(blocks: Iterable[Block]) -> list[ThinkingBlock]:
    return [block for block in blocks if isinstance(block, ThinkingBlock)]


def reasoning_content_block(blocks: Sequence[Block]) -> ThinkingBlock | None:
    """The one ``reasoning_content`` block for an anthropic assistant turn, or
    ``None`` when the turn had no thinking of any kind."""
    thinking = _thinking(blocks)
    if not thinking:
        return None
    text = "".join(block.text for block in thinking if block.text is not None)
    return ThinkingBlock(origin="reasoning_content", text=text)


def anthropic_thinking_blocks(blocks: Sequence[Block]) -> list[ThinkingBlock]:
    """Chat Completions reasoning fields as ``thinking`` blocks with an empty signature."""
    return [
        ThinkingBlock(origin="thinking", text=block.text, signature="")
        for block in _thinking(blocks)
        if block.text
    ]


def fill_replay_reasoning(turns: Sequence[Turn]) -> tuple[Turn, ...]:
    """Give every assistant turn of a tool-call stretch a ``reasoning_content``
    (``""`` where the source had none), as DeepSeek thinking mode requires."""
    filled = list(turns)
    stretch: list[int] = []
    has_call = False

    def close() -> None:
        if has_call:
            for index in stretch:
                turn = filled[index]
                if not _thinking(turn.blocks):
                    empty = ThinkingBlock(origin="reasoning_content", text="")
                    filled[index] = replace(turn, blocks=(empty, *turn.blocks))

    for index, turn in enumerate(filled):
        if turn.role == "user":
            close()
            stretch, has_call = [], False
        elif turn.role == "assistant":
            stretch.append(index)
            has_call = has_call or any(isinstance(b, ToolCall) for b in turn.blocks)
    close()
    return tuple(filled)
