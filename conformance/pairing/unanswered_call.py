"""pairing.unanswered_call: every tool call is answered before the next
assistant turn; only the last turn may leave calls open, and a call the source
answered stays answered, on the last turn too.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, ConversionUnderTest, PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import conversation_only, place
from toolwire.conformance.readings.gemini_pairs import unanswered_calls
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.readings.timeline import CallSite, call_turns, timeline_of
from toolwire.conformance.readings.views import pair_up
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_TOOLS,
    GEMINI_RESPONSE_COUNT_400,
    OPENAI_TOOLS,
    RESPONSES_DOCS,
    UNANSWERED_ANTHROPIC,
    UNANSWERED_OPENAI,
)
from toolwire.harness.model import GEMINI, Conversation

UNANSWERED_CALL = rule(
    "pairing.unanswered_call",
    "MUST",
    "payload conversion",
    "Every tool call is answered before the next assistant turn; "
    "only the last turn of a conversation may leave calls open, "
    "and a call the source answered stays answered, on the last turn too.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    GEMINI_RESPONSE_COUNT_400,
    RESPONSES_DOCS,
    evidence=(
        rejected(
            GEMINI_RESPONSE_COUNT_400,
            'Gemini 400 "Please ensure that the number of function response parts is equal '
            'to the number of function call parts of the function call turn"',
        ),
        rejected(
            UNANSWERED_ANTHROPIC,
            'Anthropic 400 "`tool_use` ids were found without `tool_result` blocks '
            'immediately after"',
        ),
        rejected(
            UNANSWERED_OPENAI,
            "OpenAI 400 \"An assistant message with 'tool_calls' must be followed by tool "
            "messages responding to each 'tool_call_id'\"",
        ),
        rejected(
            "https://github.com/openai/codex/issues/620",
            'OpenAI Responses 400 "No tool output found for function call call_..."',
        ),
    ),
    fix=(
        "Convert every result of the source: tool messages (openai-chat) become tool_result "
        "blocks of the next user message (anthropic-messages) and back. Never turn a result "
        "into plain text, and never drop the results of the last turn."
    ),
)


def check_unanswered_call(conversation: Conversation) -> list[Finding]:
    if conversation.dialect == GEMINI:
        return [
            finding(
                "pairing.unanswered_call",
                f"the call to {site.call.name!r} at {path} has no functionResponse (by id, "
                "else by name and order) before the next model turn",
                path,
            )
            for site in unanswered_calls(conversation)
            for path in [block_path(conversation, site.turn_index, site.block_index)]
        ]
    found = []
    for call_turn in call_turns(conversation):
        if call_turn.is_last_turn:
            continue  # the conversation ends on the calls: the client has yet to run them
        answered = {
            block.call_id
            for index in call_turn.window
            for block in conversation.turns[index].tool_results
        }
        for site in call_turn.calls:
            if site.call.id and site.call.id not in answered:
                path = block_path(conversation, site.turn_index, site.block_index)
                found.append(
                    finding(
                        "pairing.unanswered_call",
                        f"the call {site.call.id!r} ({site.call.name}) at {path} has no result "
                        "before the next assistant turn",
                        path,
                    )
                )
    return found


def _answered_sites(conversation: Conversation) -> tuple[list[CallSite], set[tuple[int, int]]]:
    """Every call site of ``conversation``, and those its answer window answers."""
    timeline = timeline_of(conversation)
    answered: set[tuple[int, int]] = set()
    for call_turn in timeline.call_turns:
        ids = {site.result.call_id for site in timeline.answers(call_turn)}
        answered.update(place(site) for site in call_turn.calls if site.call.id in ids)
    return list(timeline.calls), answered


def check_answers_kept(conversion: ConversionUnderTest) -> list[Finding] | None:
    """A call the source answered stays answered in the output, on the last turn too.

    The payload check cannot tell a call the client has yet to run (a request
    that ends on the calls) from one whose results a converter dropped from
    the end of the conversation: only the source can. A call answered in the
    output, or left open before the output's last turn (the payload check
    reports that one), or lost with its turn (fidelity.arguments), is not
    reported here; with no answered call of the source found in the output
    there is nothing to judge. Evidence for MUST: OpenAI answers 400 "An
    assistant message with 'tool_calls' must be followed by tool messages
    responding to each 'tool_call_id'" (no exception for the last message),
    Anthropic "Each `tool_use` block must have a corresponding `tool_result`
    block in the next message"; a plugin that removed tool messages got that
    400 (https://github.com/langgenius/dify-official-plugins/issues/2352).
    """
    source, output = conversion.source.conversation, conversion.output.conversation
    if source is None or output is None:
        return None
    source_sites, source_answered = _answered_sites(source)
    if not source_answered:
        return None
    output_sites, output_answered = _answered_sites(output)
    pairs = pair_up(
        [site.call.id for site in source_sites],
        [site.call.id for site in output_sites],
        conversion.id_mapping,
    )
    last = len(output.turns) - 1
    judged = False
    found = []
    for i, j in pairs:
        if place(source_sites[i]) not in source_answered:
            continue
        judged = True
        site = output_sites[j]
        if place(site) in output_answered or site.turn_index != last:
            continue
        path = block_path(output, site.turn_index, site.block_index)
        found.append(
            finding(
                "pairing.unanswered_call",
                f"the call {site.call.id!r} ({site.call.name}) at {path} was answered in the "
                f"source ({block_path(source, *place(source_sites[i]))}), but the output ends "
                "on it with no result: its result was dropped",
                path,
                expected="a tool result",
                actual=None,
            )
        )
    return found if judged else None


def _has_closed_call(conversation: Conversation) -> bool:
    """A call with an id that must be answered: one made before the conversation's
    last turn (calls on the last turn may still be open; the conversion check
    judges those when the source answered them). Calls without an id (Qwen XML)
    pair by order, which this rule does not judge."""
    return any(
        not turn.is_last_turn and any(site.call.id for site in turn.calls)
        for turn in call_turns(conversation)
    )


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.unanswered_call": conversation_only(check_unanswered_call, _has_closed_call),
}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {"pairing.unanswered_call": check_answers_kept}
