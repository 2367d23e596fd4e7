"""reasoning.position: Anthropic thinking blocks open the assistant content.

Interleaved thinking may also follow a server tool's result inside the same
message (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
Apart from altered.py and signature_lost.py because it judges where blocks stand in one
payload, not what a conversion did to the reasoning.
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.readings.paths import block_path, response_block_path
from toolwire.conformance.readings.timeline import ASSISTANT_ROLES
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_THINKING
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    Conversation,
    OpaqueBlock,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
)

POSITION = rule(
    "reasoning.position",
    "MUST",
    "payload",
    "Thinking blocks come first in the assistant content.",
    ANTHROPIC_THINKING,
    dialects=frozenset({ANTHROPIC}),
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/20705",
            'Anthropic 400 "If an assistant message contains any thinking blocks, the first '
            'block must be thinking or redacted_thinking. Found text."',
        ),
    ),
    fix=(
        "Put the thinking and redacted_thinking blocks first in the assistant content, "
        "before text and tool_use blocks."
    ),
)


def _is_server_tool_result(block: object) -> bool:
    return isinstance(block, OpaqueBlock) and block.type.endswith("tool_result")


def _misplaced_thinking(turn: Turn) -> list[tuple[int, str]]:
    """Thinking blocks after other content, with what comes before them.

    Interleaved thinking may follow a server tool's result inside the same
    message (a client tool_use is answered in the next message, so thinking
    after it in one message is never interleaving): that is accepted.
    """
    misplaced = []
    first_other: str | None = None
    after_result = False
    for index, block in enumerate(turn.blocks):
        if isinstance(block, ThinkingBlock):
            if first_other is not None and not after_result:
                misplaced.append((index, first_other))
            continue
        if first_other is None:
            first_other = _block_kind(block)
        if _is_server_tool_result(block):
            after_result = True
    return misplaced


def _block_kind(block: object) -> str:
    if isinstance(block, TextBlock):
        return "text"
    if isinstance(block, ToolCall):
        return "tool_use"
    if isinstance(block, OpaqueBlock):
        return block.type
    return type(block).__name__


def check_position(payload: Conversation | Response) -> list[Finding]:
    """Thinking blocks open the assistant content (anthropic-messages)."""
    placed: list[tuple[Turn, int, str, str]] = []
    if isinstance(payload, Response):
        message = payload.message
        for index, before in _misplaced_thinking(message):
            path = response_block_path(payload.dialect, message, index)
            placed.append((message, index, before, path))
    else:
        for t, turn in enumerate(payload.turns):
            if turn.role not in ASSISTANT_ROLES:
                continue
            for index, before in _misplaced_thinking(turn):
                placed.append((turn, index, before, block_path(payload, t, index)))
    return [
        finding(
            "reasoning.position",
            f"the thinking block at {path} comes after a {before} block; thinking blocks "
            "must open the assistant content",
            path,
            expected="thinking first",
            actual=[_block_kind(b) for b in turn.blocks],
        )
        for turn, _, before, path in placed
    ]


# --- wiring: what the engine calls -------------------------------------------


def _position_payload(payload: PayloadUnderTest) -> list[Finding] | None:
    target = payload.conversation or payload.response
    if target is None or payload.dialect != ANTHROPIC_MESSAGES or not _has_thinking(target):
        return None
    return check_position(target)


def _has_thinking(payload: Conversation | Response) -> bool:
    turns = payload.turns if isinstance(payload, Conversation) else (payload.message,)
    return any(isinstance(b, ThinkingBlock) for turn in turns for b in turn.blocks)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"reasoning.position": _position_payload}
