"""reasoning.replay_forbidden: no ``reasoning_content`` sent back to the legacy deepseek-reasoner.

* The legacy ``deepseek-reasoner`` answered 400 to any ``reasoning_content``
  in the input (https://api-docs.deepseek.com/guides/reasoning_model).
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.readings.timeline import ASSISTANT_ROLES
from toolwire.conformance.reasoning.replay_missing import REPLAY_FIELD
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import DEEPSEEK_REASONER
from toolwire.harness.model import Conversation, ThinkingBlock

REPLAY_FORBIDDEN = rule(
    "reasoning.replay_forbidden",
    "MUST",
    "payload",
    "For the legacy deepseek-reasoner, no reasoning_content is sent back in the input.",
    DEEPSEEK_REASONER,
    dialects=frozenset({"deepseek-chat"}),
    profile_levels={
        "deepseek-reasoner-legacy": "MUST",
        "deepseek-thinking": None,
        "deepseek": None,
    },
    evidence=(
        documented(
            DEEPSEEK_REASONER,
            "reasoning_content included in the input messages makes the API return 400",
        ),
    ),
    fix=(
        "Toward the legacy deepseek-reasoner, remove `reasoning_content` from the assistant "
        "messages of the request."
    ),
)


def check_replay_forbidden(conversation: Conversation) -> list[Finding]:
    """No assistant message of the input carries reasoning_content (legacy reasoner)."""
    found = []
    for index, turn in enumerate(conversation.turns):
        if turn.role not in ASSISTANT_ROLES:
            continue
        for b, block in enumerate(turn.blocks):
            if not (isinstance(block, ThinkingBlock) and block.origin == REPLAY_FIELD):
                continue
            path = block_path(conversation, index, b)
            found.append(
                finding(
                    "reasoning.replay_forbidden",
                    f"{path} sends reasoning_content back; the legacy deepseek-reasoner rejects "
                    "reasoning_content in the input (drop it from earlier assistant messages)",
                    path,
                    expected=None,
                    actual=block.text,
                )
            )
    return found


def _request_check(check: Callable[[Conversation], list[Finding]]) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        conversation = payload.conversation
        if conversation is None or not any(
            turn.role in ASSISTANT_ROLES for turn in conversation.turns
        ):
            return None
        return check(conversation)

    return run


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "reasoning.replay_forbidden": _request_check(check_replay_forbidden),
}
