"""reasoning.item_unfollowed: an openai-responses reasoning item is followed by what it led to.

A reasoning model's output is items in order: ``reasoning`` items, then the
``message`` or ``function_call`` items they led to. Replaying a turn (the
whole output sent back in ``input``, with ``encrypted_content`` when
``store: false``) keeps that order
(https://platform.openai.com/docs/guides/reasoning, "Keeping reasoning
items in context"; https://platform.openai.com/docs/guides/function-calling).
OpenAI's API enforces it both ways, with HTTP 400 ``invalid_request_error``:

* ``reasoning.item_unfollowed``: "Item 'rs_...' of type 'reasoning' was
  provided without its required following item" when a reasoning item is
  sent with no output item after it (continuedev/continue#8933,
  openai/openai-agents-python#1611).

reasoning.item_separated (item_separated.py) judges the other direction.
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import RESPONSES_REASONING, RESPONSES_REASONING_ALONE_400
from toolwire.harness.model import OPENAI_RESPONSES, Conversation, ThinkingBlock

ITEM_UNFOLLOWED = rule(
    "reasoning.item_unfollowed",
    "MUST",
    "payload",
    "In an openai-responses request every reasoning item is followed, in its turn, by "
    "the message or function_call item it preceded.",
    RESPONSES_REASONING,
    RESPONSES_REASONING_ALONE_400,
    dialects=frozenset({"openai-responses"}),
    evidence=(
        rejected(
            "https://github.com/continuedev/continue/issues/8933",
            "api.openai.com/v1/responses 400 invalid_request_error \"Item 'rs_...' of type "
            "'reasoning' was provided without its required following item.\"",
        ),
    ),
    fix=(
        "Send each openai-responses reasoning item together with the message or function_call "
        "item that followed it in the model's output, in the same order; drop the reasoning "
        "item too if you drop what it preceded."
    ),
)


def _is_item(block: object) -> bool:
    return isinstance(block, ThinkingBlock) and block.origin == "reasoning_item"


def check_item_unfollowed(conversation: Conversation) -> list[Finding] | None:
    found: list[Finding] = []
    judged = False
    for t, turn in enumerate(conversation.turns):
        for b, block in enumerate(turn.blocks):
            if not _is_item(block):
                continue
            judged = True
            if not any(not _is_item(after) for after in turn.blocks[b + 1 :]):
                label = getattr(block, "item_id", None) or "a reasoning item"
                found.append(
                    finding(
                        "reasoning.item_unfollowed",
                        f"reasoning item {label!r} ends its turn with no message or "
                        "function_call after it; OpenAI rejects it (HTTP 400: provided "
                        "without its required following item)",
                        block_path(conversation, t, b),
                    )
                )
    return found if judged else None


def _unfollowed(payload: PayloadUnderTest) -> list[Finding] | None:
    conversation = payload.conversation
    if conversation is None or payload.dialect != OPENAI_RESPONSES:
        return None
    return check_item_unfollowed(conversation)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"reasoning.item_unfollowed": _unfollowed}
