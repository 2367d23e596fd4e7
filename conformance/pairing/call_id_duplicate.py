"""pairing.call_id_duplicate: no two tool calls in a conversation share an id.

An openai-responses server may number call ids per response: Amazon Bedrock's
Responses endpoint (Bedrock Mantle) returns ``call_id: "call_0"`` in every
response (pydantic/pydantic-ai#6536; BerriAI/litellm#30426). A client that
sends such a history back must send the ids as the server returned them
(``replay.assistant_altered``; pydantic/pydantic-ai#7962 restores the raw
``call_id`` on replay after Mantle rejected its rewritten ids). So in an
openai-responses request an id shared by calls of different model turns is
not judged here: each result answers the call of its own turn
(``pairing.orphan_result`` still pairs them turn by turn). Two calls of one
turn with one id cannot be told apart and are still a duplicate. A converter
toward another dialect must make such ids unique (docs/conventions.md, "Call
ids a server numbers per response").
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import any_payload, calls_with_paths
from toolwire.conformance.presets import ID_DIALECTS
from toolwire.conformance.readings.timeline import timeline_of
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS
from toolwire.harness.model import OPENAI_RESPONSES, Conversation, Response

CALL_ID_DUPLICATE = rule(
    "pairing.call_id_duplicate",
    "MUST",
    "payload",
    "No two tool calls in a conversation share an id.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    dialects=ID_DIALECTS,
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/21317",
            'Anthropic 400 "messages.1.content.1: `tool_use` ids must be unique"',
        ),
        rejected(
            "https://github.com/earendil-works/pi/issues/9057",
            "an OpenAI-compatible Responses endpoint 400 \"Duplicate 'call_id'\" for two "
            "calls of one turn",
        ),
    ),
    fix=(
        "Keep each call's own id. When ids are minted (Qwen XML), number them across the "
        "whole conversation, not per response. Ids a Responses server numbers per response "
        "(Bedrock's call_0) go back to that server unchanged; toward another dialect, make "
        "them unique (for example with the item's fc_ id)."
    ),
)


def check_call_id_duplicate(payload: Conversation | Response) -> list[Finding]:
    calls = calls_with_paths(payload)
    paths_by_id: dict[str, list[str]] = {}
    for call, path in calls:
        if call.id:
            paths_by_id.setdefault(call.id, []).append(path)
    scope = ""
    if isinstance(payload, Conversation) and payload.dialect == OPENAI_RESPONSES:
        paths_by_id = _within_one_turn(payload, paths_by_id)
        scope = " of one model turn, which no result can tell apart"
    found = []
    reported: set[str] = set()
    for call, path in calls:
        if call.id and len(paths_by_id.get(call.id, ())) > 1 and call.id not in reported:
            reported.add(call.id)
            paths = paths_by_id[call.id]
            found.append(
                finding(
                    "pairing.call_id_duplicate",
                    f"id {call.id!r} is used by {len(paths)} calls{scope}: {', '.join(paths)}",
                    path,
                )
            )
    return found


def _within_one_turn(
    conversation: Conversation, paths_by_id: dict[str, list[str]]
) -> dict[str, list[str]]:
    """The ids shared inside one model turn (an id reused by another turn's
    calls is a server's per-response numbering), with their paths."""
    sites = timeline_of(conversation).calls
    turns_by_id: dict[str, list[int]] = {}
    for site in sites:
        if site.call.id:
            turns_by_id.setdefault(site.call.id, []).append(site.turn_index)
    return {
        call_id: paths
        for call_id, paths in paths_by_id.items()
        if len(set(turns_by_id[call_id])) < len(turns_by_id[call_id])
    }


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.call_id_duplicate": any_payload(check_call_id_duplicate, at_least=2),
}
