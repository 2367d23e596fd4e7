"""ordering.role_alternation: user and assistant messages alternate,
starting with a user message."""

from __future__ import annotations

from functools import partial
from itertools import pairwise

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import answers, anthropic_only, on_requests
from toolwire.conformance.presets import ANTHROPIC, STRICT_ONLY
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.timeline import call_turns
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS
from toolwire.harness.model import Conversation

ROLE_ALTERNATION = rule(
    "ordering.role_alternation",
    "MUST",
    "payload",
    "User and assistant messages alternate, starting with a user message.",
    ANTHROPIC_DOCS,
    dialects=frozenset({ANTHROPIC}),
    profile_levels=STRICT_ONLY,
    evidence=(
        rejected(
            "https://github.com/deepseek-ai/DeepSeek-R1/issues/21",
            'DeepSeek 400 "does not support successive user or assistant messages"',
        ),
    ),
    fix=(
        "Merge consecutive messages of one role into one message (their content blocks in "
        "order) and start the conversation with a user message."
    ),
)


def check_role_alternation(conversation: Conversation) -> list[Finding]:
    # System and developer roles are ordering.system_placement's; any other
    # role is a schema violation. Only user and assistant messages alternate.
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    holders = {
        site.turn_index
        for call_turn in call_turns(conversation)
        for site in answers(conversation, call_turn)
    }
    indices = [i for i, t in enumerate(conversation.turns) if t.role in ("user", "assistant")]
    found = []
    if indices and conversation.turns[indices[0]].role != "user":
        found.append(
            finding(
                "ordering.role_alternation",
                f"the first message {at(indices[0])} is an assistant message; "
                "anthropic-messages expects the conversation to start with a user message",
                f"{at(indices[0])}.role",
                expected="user",
                actual=conversation.turns[indices[0]].role,
            )
        )
    for previous, current in pairwise(indices):
        role = conversation.turns[current].role
        if role != conversation.turns[previous].role:
            continue
        if role == "user" and current in holders:
            continue  # results placed in a second user message: the result rules say so
        found.append(
            finding(
                "ordering.role_alternation",
                f"{at(previous)} and {at(current)} are both {role} messages; "
                "anthropic-messages expects user and assistant messages to alternate",
                at(current),
                expected="assistant" if role == "user" else "user",
                actual=role,
            )
        )
    return found


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.role_alternation": anthropic_only(on_requests(check_role_alternation)),
}
