"""pairing.duplicate_result: no tool call is answered more than once."""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import conversation_only
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.readings.timeline import call_turns, timeline_of
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS
from toolwire.harness.model import Conversation, ToolResult

DUPLICATE_RESULT = rule(
    "pairing.duplicate_result",
    "MUST",
    "payload",
    "No tool call is answered more than once.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/14110",
            'Anthropic 400 "each tool_use must have a single result. Found multiple '
            '`tool_result` blocks"',
        ),
    ),
    fix=(
        "Write each result once: do not append a result that is already in the target "
        "message, and do not merge two conversions of the same history."
    ),
)


def check_duplicate_result(conversation: Conversation) -> list[Finding]:
    """A call answered twice in the turns where its results belong. An id reused
    by calls of different turns is pairing.call_id_duplicate, not this."""
    found = []
    for call_turn in call_turns(conversation):
        offered = {site.call.id for site in call_turn.calls if site.call.id}
        seen: dict[str, str] = {}
        for index in call_turn.window:
            for block_index, block in enumerate(conversation.turns[index].blocks):
                if not isinstance(block, ToolResult) or block.call_id not in offered:
                    continue
                path = block_path(conversation, index, block_index)
                call_id = block.call_id
                if call_id in seen:
                    found.append(
                        finding(
                            "pairing.duplicate_result",
                            f"{call_id!r} is answered at {seen[call_id]} and again at {path}",
                            path,
                        )
                    )
                else:
                    seen[call_id] = path
    return found


def _has_answers(conversation: Conversation) -> bool:
    """A call answered in its window: the thing that could be answered twice."""
    timeline = timeline_of(conversation)
    return any(timeline.answers(turn) for turn in timeline.call_turns)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.duplicate_result": conversation_only(check_duplicate_result, _has_answers),
}
