"""Assistant turns seen the way the reasoning rules need them.

A *view* is one assistant turn (consecutive assistant messages merged, as
Anthropic's API merges them) with where it sits in the conversation:

* ``tool_stretch``: its *stretch* (the turns between two genuine user
  messages) holds a tool call. DeepSeek requires ``reasoning_content`` on
  every assistant message of such a stretch in all later requests
  (https://api-docs.deepseek.com/guides/thinking_mode, "Tool Calls").
* ``open_loop``: it comes after the last genuine user message, so it belongs
  to the assistant turn still in progress. Anthropic requires the thinking of
  that turn back unchanged and lets a client omit thinking from earlier turns
  (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking,
  "Preserving thinking blocks").

A *genuine* user message holds something other than tool results: a user
message made only of ``tool_result`` blocks (or an openai-chat ``tool``
message) continues the assistant's turn.

A response is one view; it counts as open, and as a tool stretch only when
it makes calls (the rest of its stretch is not visible).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolwire.conformance.readings.memo import by_identity
from toolwire.conformance.readings.paths import (
    block_path,
    response_block_path,
    response_message_path,
    turn_path,
)
from toolwire.conformance.readings.timeline import ASSISTANT_ROLES
from toolwire.harness.model import (
    Conversation,
    Response,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)


@dataclass(frozen=True)
class PlacedThinking:
    block: ThinkingBlock
    path: str


@dataclass(frozen=True)
class AssistantView:
    turns: tuple[Turn, ...]
    # Indices of the wire turns merged into this view (empty for a response).
    indices: tuple[int, ...]
    path: str
    tool_stretch: bool
    open_loop: bool
    thinking: tuple[PlacedThinking, ...]

    @property
    def has_calls(self) -> bool:
        return any(turn.tool_calls for turn in self.turns)

    @property
    def calls(self) -> tuple[ToolCall, ...]:
        return tuple(call for turn in self.turns for call in turn.tool_calls)

    def thinking_text(self) -> str | None:
        """The text of its thinking blocks joined with no separator (the
        convention of docs/conventions.md), or None when none has text."""
        texts = [t.block.text for t in self.thinking if t.block.text is not None]
        return "".join(texts) if texts else None

    def describe(self) -> str:
        names = [call.name or "?" for call in self.calls]
        return f"{self.path} (calls {', '.join(names)})" if names else self.path


def is_genuine_user_turn(turn: Turn) -> bool:
    """A user message that is more than tool results (it starts a new stretch)."""
    if turn.role != "user":
        return False
    return not turn.blocks or any(not isinstance(b, ToolResult) for b in turn.blocks)


def assistant_views(payload: Conversation | Response) -> list[AssistantView]:
    if isinstance(payload, Response):
        # A response without choices (a library that drops a candidate it cannot
        # read) has no assistant message to look at.
        return [_response_view(payload)] if payload.choices else []
    return list(_conversation_views(payload))


@by_identity  # read by each reasoning check of a conversion and round trip: built once
def _response_view(response: Response) -> AssistantView:
    message = response.message
    thinking = tuple(
        PlacedThinking(block, response_block_path(response.dialect, message, index))
        for index, block in enumerate(message.blocks)
        if isinstance(block, ThinkingBlock)
    )
    has_calls = bool(message.tool_calls)
    return AssistantView(
        (message,), (), response_message_path(response.dialect), has_calls, True, thinking
    )


@by_identity  # read by several reasoning checks per payload: built once (readings/memo.py)
def _conversation_views(conversation: Conversation) -> tuple[AssistantView, ...]:
    groups: list[list[int]] = []
    stretch_of_group: list[int] = []
    stretch = 0
    previous_assistant = False
    for index, turn in enumerate(conversation.turns):
        if turn.role in ASSISTANT_ROLES:
            if previous_assistant:
                groups[-1].append(index)
            else:
                groups.append([index])
                stretch_of_group.append(stretch)
            previous_assistant = True
            continue
        previous_assistant = False
        if is_genuine_user_turn(turn):
            stretch += 1
    stretch_has_calls = {
        stretch_of_group[g]
        for g, group in enumerate(groups)
        if any(conversation.turns[i].tool_calls for i in group)
    }
    views = []
    for g, group in enumerate(groups):
        thinking = tuple(
            PlacedThinking(block, block_path(conversation, i, b))
            for i in group
            for b, block in enumerate(conversation.turns[i].blocks)
            if isinstance(block, ThinkingBlock)
        )
        views.append(
            AssistantView(
                turns=tuple(conversation.turns[i] for i in group),
                indices=tuple(group),
                path=turn_path(group[0], conversation),
                tool_stretch=stretch_of_group[g] in stretch_has_calls,
                open_loop=stretch_of_group[g] == stretch,
                thinking=thinking,
            )
        )
    return tuple(views)


def thinking_pairs(
    source: Conversation | Response,
    output: Conversation | Response,
    keep: Callable[[AssistantView], bool],
) -> list[tuple[AssistantView, AssistantView]]:
    """Source and output assistant views paired in order, where ``keep`` (which
    accepts only views with thinking) accepts the source's.

    A converter keeps the number of assistant turns (consecutive ones merge
    on both sides); when the counts differ, other rules report it and the
    pairs stop at the shorter side. Against an output conversation, a source
    whose views ``keep`` all refuses pairs none, so the output's views are not
    built, nor the source's when its assistant turns hold no thinking at all
    (most have none); a response's views are always built, so that one
    without choices fails whatever the source.
    """
    if (
        isinstance(source, Conversation)
        and isinstance(output, Conversation)
        and not _assistant_thinks(source)
    ):
        return []
    source_views = assistant_views(source)
    kept = [keep(view) for view in source_views]
    if not any(kept) and isinstance(output, Conversation):
        return []
    pairs = zip(source_views, assistant_views(output), kept, strict=False)
    return [(s, o) for s, o, k in pairs if k]


def _assistant_thinks(conversation: Conversation) -> bool:
    return any(
        turn.role in ASSISTANT_ROLES and any(isinstance(b, ThinkingBlock) for b in turn.blocks)
        for turn in conversation.turns
    )
