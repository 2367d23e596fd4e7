"""pairing.call_id_duplicate: no two tool calls in a conversation share an id."""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import any_payload, calls_with_paths
from toolwire.conformance.presets import ID_DIALECTS
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS
from toolwire.harness.model import Conversation, Response

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
    ),
    fix=(
        "Keep each call's own id. When ids are minted (Qwen XML, servers that number calls "
        "per response), number them across the whole conversation, not per response."
    ),
)


def check_call_id_duplicate(payload: Conversation | Response) -> list[Finding]:
    calls = calls_with_paths(payload)
    paths_by_id: dict[str, list[str]] = {}
    for call, path in calls:
        if call.id:
            paths_by_id.setdefault(call.id, []).append(path)
    found = []
    reported: set[str] = set()
    for call, path in calls:
        if call.id and len(paths_by_id[call.id]) > 1 and call.id not in reported:
            reported.add(call.id)
            paths = paths_by_id[call.id]
            found.append(
                finding(
                    "pairing.call_id_duplicate",
                    f"id {call.id!r} is used by {len(paths)} calls: {', '.join(paths)}",
                    path,
                )
            )
    return found


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.call_id_duplicate": any_payload(check_call_id_duplicate, at_least=2),
}
