"""pairing.call_id_missing: every tool call carries a non-empty id."""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import any_payload, calls_with_paths
from toolwire.conformance.presets import ID_DIALECTS
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS, RESPONSES_DOCS
from toolwire.harness.model import Conversation, Response

CALL_ID_MISSING = rule(
    "pairing.call_id_missing",
    "MUST",
    "payload",
    "Every tool call carries a non-empty id.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    # function_call.call_id and function_call_output.call_id are required.
    RESPONSES_DOCS,
    dialects=ID_DIALECTS,
    evidence=(
        documented(OPENAI_DOCS, "tool_calls[].id is a required string of an assistant message"),
        documented(ANTHROPIC_DOCS, "tool_use.id and tool_result.tool_use_id are required"),
        documented(
            "https://platform.openai.com/docs/api-reference/responses/create",
            "function_call.call_id and function_call_output.call_id are required strings",
        ),
    ),
    fix=(
        "Copy the source's call id into the target's id field (`tool_calls[].id`, "
        "`tool_use.id`). Where the source has no id (Qwen XML calls), mint one that is "
        "unique in the conversation, and give the matching result the same id."
    ),
)


def check_call_id_missing(payload: Conversation | Response) -> list[Finding]:
    return [
        finding(
            "pairing.call_id_missing",
            f"the call to {call.name!r} at {path} has no id",
            path,
            actual=call.id,
        )
        for call, path in calls_with_paths(payload)
        if not call.id
    ]


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.call_id_missing": any_payload(check_call_id_missing),
}
