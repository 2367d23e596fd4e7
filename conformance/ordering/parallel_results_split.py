"""ordering.parallel_results_split: all tool results for one assistant turn
travel in a single user message.

MUST under the default ``anthropic`` profile: Claude on Vertex AI, DeepSeek's
Anthropic-format endpoint and Anthropic's API have answered 400 "tool_use ids
were found without tool_result blocks immediately after" to results split
over consecutive user messages, and Anthropic's parallel tool use page puts
every result in the next user message. SHOULD under ``anthropic-merging``,
for a target that merges consecutive user messages before it checks them, as
the Messages API reference says Anthropic's API does (docs/levels.md, "Split
tool results toward Anthropic")."""

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
from toolwire.conformance.presets import ANTHROPIC, LENIENT_WHERE_MERGED
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.timeline import call_turns
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_PARALLEL_TOOLS,
    ANTHROPIC_TOOLS,
    SPLIT_RESULTS_ANTHROPIC_400,
    SPLIT_RESULTS_DEEPSEEK_ANTHROPIC_400,
    SPLIT_RESULTS_VERTEX_400,
)
from toolwire.harness.model import Conversation

PARALLEL_RESULTS_SPLIT = rule(
    "ordering.parallel_results_split",
    "MUST",
    "payload",
    "All tool results for one assistant turn travel in a single user message.",
    ANTHROPIC_TOOLS,
    ANTHROPIC_PARALLEL_TOOLS,
    dialects=frozenset({ANTHROPIC}),
    # SHOULD only under anthropic-merging: a target that merges consecutive
    # user messages before it checks the results.
    profile_levels=LENIENT_WHERE_MERGED,
    evidence=(
        rejected(
            SPLIT_RESULTS_VERTEX_400,
            "Claude on Vertex AI (toolu_vrtx_ ids): two tool_result messages for one turn's "
            'two calls, 400 "tool_use ids were found without tool_result blocks immediately '
            'after"',
        ),
        rejected(
            "https://github.com/agentscope-ai/agentscope/issues/1892",
            "DeepSeek's Anthropic endpoint: two parallel results in two user messages, 400 "
            '"tool_use ids were found without tool_result blocks immediately after"',
        ),
        rejected(
            SPLIT_RESULTS_DEEPSEEK_ANTHROPIC_400,
            "DeepSeek V4 Flash on its Anthropic-format endpoint: results of one turn split "
            'over user messages, 400 "tool_use ids were found without tool_result blocks '
            'immediately after"',
        ),
        rejected(
            SPLIT_RESULTS_ANTHROPIC_400,
            "Anthropic's API: each parallel result sent as its own message, 400 "
            '"tool_use ids were found without tool_result blocks immediately after"',
        ),
        documented(
            ANTHROPIC_PARALLEL_TOOLS,
            "return one tool_result for each tool_use block, all of them in the next user message",
        ),
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
