"""ordering.result_after_text: in an anthropic-messages user message,
tool_result blocks come before any other content."""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import anthropic_only, with_results
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS
from toolwire.harness.model import Conversation, ToolResult

RESULT_AFTER_TEXT = rule(
    "ordering.result_after_text",
    "MUST",
    "payload",
    "In an anthropic-messages user message, tool_result blocks come before any other content.",
    ANTHROPIC_TOOLS,
    dialects=frozenset({ANTHROPIC}),
    evidence=(
        documented(
            ANTHROPIC_TOOLS,
            "in the user message holding tool results, the tool_result blocks come first; "
            "text only after them (a 400 otherwise)",
        ),
    ),
    fix=(
        "In an anthropic-messages user message, write the tool_result blocks first and any "
        "text the source had after them."
    ),
)


def _user_units(conversation: Conversation, merges: bool) -> list[list[int]]:
    """User messages as the server sees them: runs of consecutive user messages
    when it merges, single messages otherwise."""
    units: list[list[int]] = []
    previous_user = False
    for index, turn in enumerate(conversation.turns):
        is_user = turn.role == "user"
        if is_user and merges and previous_user:
            units[-1].append(index)
        elif is_user:
            units.append([index])
        previous_user = is_user
    return units


def check_result_after_text(conversation: Conversation, merges: bool) -> list[Finding]:
    # "tool_result blocks must come FIRST in the content array" (implement-tool-use).
    found = []
    for unit in _user_units(conversation, merges):
        misplaced = _result_after_other_content(conversation, unit)
        if misplaced is None:
            continue
        path, other = misplaced
        merged = " (consecutive user messages merge)" if len(unit) > 1 else ""
        found.append(
            finding(
                "ordering.result_after_text",
                f"the tool_result at {path} comes after other content at {other}{merged}; "
                "tool_result blocks must come first",
                path,
                expected="tool_result blocks before any other content",
                actual=other,
            )
        )
    return found


def _result_after_other_content(
    conversation: Conversation, unit: list[int]
) -> tuple[str, str] | None:
    """(path of the first tool_result after other content, path of that content)."""
    other: str | None = None
    for turn_index in unit:
        for block_index, block in enumerate(conversation.turns[turn_index].blocks):
            if not isinstance(block, ToolResult):
                other = other or block_path(conversation, turn_index, block_index)
            elif other is not None:
                return block_path(conversation, turn_index, block_index), other
    return None


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.result_after_text": anthropic_only(with_results(check_result_after_text)),
}
