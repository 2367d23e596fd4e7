"""ordering.parallel_results_split: all tool results for one assistant turn
travel in a single user message."""

from __future__ import annotations

from functools import partial

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import (
    answers,
    anthropic_only,
    merge_blind,
    several_answers,
    with_results,
)
from toolwire.conformance.presets import ANTHROPIC, STRICT_ONLY
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.timeline import call_turns
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS
from toolwire.harness.model import Conversation

PARALLEL_RESULTS_SPLIT = rule(
    "ordering.parallel_results_split",
    "MUST",
    "payload",
    "All tool results for one assistant turn travel in a single user message.",
    ANTHROPIC_TOOLS,
    dialects=frozenset({ANTHROPIC}),
    profile_levels=STRICT_ONLY,
    # MUST only under anthropic-strict: servers that do not merge same-role messages.
    evidence=(
        rejected(
            "https://github.com/deepseek-ai/DeepSeek-R1/issues/21",
            'DeepSeek 400 "does not support successive user or assistant messages": a '
            "server that does not merge same-role messages rejects them",
        ),
        documented(ANTHROPIC_TOOLS, "all results of one assistant turn go in one user message"),
    ),
    fix=(
        "Gather every tool message answering one assistant turn into a single anthropic "
        "user message, one tool_result block each, in the order of the calls."
    ),
)


def check_parallel_results_split(conversation: Conversation) -> list[Finding]:
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    found = []
    for call_turn in call_turns(conversation):
        holders = sorted({site.turn_index for site in answers(conversation, call_turn)})
        if len(holders) > 1:
            where = ", ".join(at(i) for i in holders)
            found.append(
                finding(
                    "ordering.parallel_results_split",
                    f"the results for the calls of {at(call_turn.turn_index)} are split "
                    f"over {where}; send them all in one user message",
                    at(holders[1]),
                    expected=[at(holders[0])],
                    actual=[at(i) for i in holders],
                )
            )
    return found


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.parallel_results_split": anthropic_only(
        with_results(merge_blind(check_parallel_results_split), several_answers)
    ),
}
