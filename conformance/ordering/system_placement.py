"""ordering.system_placement: in anthropic-messages a system prompt travels
in the top-level system field, never as a message inside messages."""

from __future__ import annotations

from functools import partial

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import anthropic_only, on_requests
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS
from toolwire.harness.model import Conversation

SYSTEM_PLACEMENT = rule(
    "ordering.system_placement",
    "MUST",
    "payload",
    "In anthropic-messages a system prompt travels in the top-level system field, "
    "never as a system or developer message inside messages.",
    ANTHROPIC_DOCS,
    dialects=frozenset({ANTHROPIC}),
    evidence=(
        rejected(
            "https://github.com/Maol-1997/cursor-claude-connector/issues/3",
            'Anthropic 400 "Unexpected role \\"system\\". The Messages API accepts a '
            'top-level `system` parameter"',
        ),
    ),
    fix=(
        "Move system and developer messages out of `messages` into the top-level `system` "
        "field of the anthropic-messages request."
    ),
)


SYSTEM_ROLES = frozenset({"system", "developer"})


def check_system_placement(conversation: Conversation) -> list[Finding]:
    # anthropic-messages has no system role: the prompt is the top-level
    # `system` field (https://docs.anthropic.com/en/api/messages). OpenAI's
    # reference puts no constraint on where system/developer messages go,
    # so openai-chat payloads have nothing to judge here.
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    return [
        finding(
            "ordering.system_placement",
            f"{at(index)} has role {turn.role!r}; anthropic-messages carries the system "
            "prompt in the top-level `system` field",
            f"{at(index)}.role",
            expected="top-level system",
            actual=turn.role,
        )
        for index, turn in enumerate(conversation.turns)
        if turn.role in SYSTEM_ROLES
    ]


def _has_system_prompt(conversation: Conversation) -> bool:
    return bool(conversation.system) or any(t.role in SYSTEM_ROLES for t in conversation.turns)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.system_placement": anthropic_only(
        on_requests(check_system_placement, _has_system_prompt)
    ),
}
