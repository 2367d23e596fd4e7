"""Keep text and calls in their source order between Responses and Anthropic.

Responses <-> Anthropic goes through the Chat Completions form, which holds a
turn's text in one ``content`` before its ``tool_calls``: text written after
a call would move before it. Both ends can carry the order (Anthropic content
blocks; Responses ``message`` and ``function_call`` items), so after the
conversion each assistant turn gets its text and calls back in the order of
its source turn (ordering.block_order). Assistant turns map one to one in
every step of these conversions, so the n-th assistant turn of the output
comes from the n-th of the source.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolwire.harness.model import (
    Block,
    Conversation,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
)


def _text_after_call(turn: Turn) -> bool:
    seen_call = False
    for block in turn.blocks:
        if isinstance(block, ToolCall):
            seen_call = True
        elif isinstance(block, TextBlock) and block.text and seen_call:
            return True
    return False


def interleave(source: Turn, converted: Turn) -> Turn:
    """``converted`` with its text and calls in ``source``'s order."""
    calls = list(converted.tool_calls)
    if not _text_after_call(source) or len(calls) != len(source.tool_calls):
        return converted
    first: list[Block] = [b for b in converted.blocks if isinstance(b, ThinkingBlock)]
    rest: list[Block] = [
        b for b in converted.blocks if not isinstance(b, TextBlock | ToolCall | ThinkingBlock)
    ]
    body: list[Block] = []
    pending = iter(calls)
    for block in source.blocks:
        if isinstance(block, TextBlock) and block.text:
            body.append(TextBlock(block.text))
        elif isinstance(block, ToolCall):
            body.append(next(pending))
    return Turn(converted.role, tuple(first + body + rest), converted.content_form, converted.extra)


def _assistants(turns: Sequence[Turn]) -> list[int]:
    return [i for i, turn in enumerate(turns) if turn.role == "assistant"]


def conversation_in_order(source: Conversation, converted: Conversation) -> Conversation:
    sources, targets = _assistants(source.turns), _assistants(converted.turns)
    if len(sources) != len(targets):
        return converted
    turns = list(converted.turns)
    for s, t in zip(sources, targets, strict=True):
        turns[t] = interleave(source.turns[s], turns[t])
    return Conversation(
        dialect=converted.dialect,
        turns=tuple(turns),
        model=converted.model,
        system=converted.system,
        system_form=converted.system_form,
        tools=converted.tools,
        tool_choice=converted.tool_choice,
        parallel_tool_calls=converted.parallel_tool_calls,
        stream=converted.stream,
        extra=converted.extra,
    )


def response_in_order(source: Response, converted: Response) -> Response:
    choice = converted.choices[0]
    message = interleave(source.choices[0].message, choice.message)
    if message is choice.message:
        return converted
    new_choice = type(choice)(choice.index, message, choice.stop_reason, choice.extra)
    return Response(
        converted.dialect,
        (new_choice,),
        converted.id,
        converted.model,
        converted.usage,
        converted.extra,
    )
