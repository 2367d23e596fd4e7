"""pairing.id_pattern: tool call ids and tool names in the output are legal
for the target dialect."""

from __future__ import annotations

import re

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import any_payload, calls_with_paths
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import DIALECTS, GEMINI, OPENAI_RESPONSES, Conversation, Response

# Documented patterns. Anthropic: tool_use ids ^[a-zA-Z0-9_-]+$, tool names
# ^[a-zA-Z0-9_-]{1,128}$ (older pages said 64); OpenAI function names
# ^[a-zA-Z0-9_-]{1,64}$. OpenAI does not document an id pattern.
ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# Gemini function names: a-z, A-Z, 0-9, underscores, colons, dots and dashes,
# 64 at most (https://ai.google.dev/api/caching#FunctionDeclaration).
GEMINI_NAME = re.compile(r"^[a-zA-Z0-9_:.-]{1,64}$")
# Responses function names: the API reference states no pattern; OpenAI's own
# client holds them to ^[a-zA-Z0-9_-]+$, 128 at most, "the Responses
# function-tool identifier contract" (openai/codex#20724). The Chat limit of
# 64 would fail names the Responses API accepts.
RESPONSES_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
_NAME_PATTERNS = {
    "anthropic-messages": ANTHROPIC_NAME,
    GEMINI: GEMINI_NAME,
    OPENAI_RESPONSES: RESPONSES_NAME,
}
# The other dialects (openai-chat, deepseek-chat, qwen-xml) are held to OPENAI_NAME.
_OPENAI_NAMED = ", ".join(d for d in DIALECTS if d not in _NAME_PATTERNS)

ID_PATTERN = rule(
    "pairing.id_pattern",
    "MUST",
    "payload",
    "Tool call ids and tool names in the output are legal for the target dialect.",
    ANTHROPIC_DOCS,
    OPENAI_DOCS,
    evidence=(
        documented(
            "https://ai.google.dev/api/caching#FunctionDeclaration",
            "Gemini function names: a-z, A-Z, 0-9, underscores, colons, dots and dashes, "
            "64 at most",
        ),
        documented(
            ANTHROPIC_DOCS, "tool names match ^[a-zA-Z0-9_-]{1,64}$ (64 characters at most)"
        ),
        documented(
            OPENAI_DOCS, "function names: a-z, A-Z, 0-9, underscores and dashes, 64 at most"
        ),
        rejected(
            "https://github.com/anomalyco/opencode/issues/1279",
            "Anthropic 400 \"tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'\"",
        ),
    ),
    fix=(
        "Rewrite the ids and tool names the target refuses. Tool call ids are judged for "
        f"anthropic-messages, which accepts `{ANTHROPIC_ID.pattern}`. Tool names: "
        f"anthropic-messages `{ANTHROPIC_NAME.pattern}`, openai-responses "
        f"`{RESPONSES_NAME.pattern}`, gemini `{GEMINI_NAME.pattern}` (colons and dots too), "
        f"{_OPENAI_NAMED} `{OPENAI_NAME.pattern}`. Replace the other characters and shorten "
        "long names consistently on the call and its result, and declare the mapping."
    ),
)


def check_id_pattern(payload: Conversation | Response) -> list[Finding]:
    found = []
    dialect = payload.dialect
    name_pattern = _NAME_PATTERNS.get(dialect, OPENAI_NAME)
    for call, path in calls_with_paths(payload):
        if dialect == "anthropic-messages" and call.id and not ANTHROPIC_ID.match(call.id):
            found.append(
                finding(
                    "pairing.id_pattern",
                    f"id {call.id!r} at {path} is not legal in {dialect} "
                    f"(must match {ANTHROPIC_ID.pattern})",
                    path,
                    actual=call.id,
                )
            )
        if call.name is not None and not name_pattern.match(call.name):
            found.append(
                finding(
                    "pairing.id_pattern",
                    f"tool name {call.name!r} at {path} is not legal in {dialect} "
                    f"(must match {name_pattern.pattern})",
                    path,
                    actual=call.name,
                )
            )
    return found


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.id_pattern": any_payload(check_id_pattern),
}
