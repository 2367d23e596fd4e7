"""reasoning.item_separated: a replayed function_call keeps the reasoning items before it.

A reasoning model's output is items in order: ``reasoning`` items, then the
``message`` or ``function_call`` items they led to. Replaying a turn (the
whole output sent back in ``input``, with ``encrypted_content`` when
``store: false``) keeps that order
(https://platform.openai.com/docs/guides/reasoning, "Keeping reasoning
items in context"; https://platform.openai.com/docs/guides/function-calling).
OpenAI's API enforces it both ways, with HTTP 400 ``invalid_request_error``
(the other way is reasoning.item_unfollowed, item_unfollowed.py):

* ``reasoning.item_separated``: "Item 'fc_...' of type 'function_call' was
  provided without its required 'reasoning' item: 'rs_...'" when a call is
  replayed with its item id but without the reasoning item that preceded it
  (continuedev/continue#10018, cline/cline#12242, VRSEN/agency-swarm#367).
  A call replayed without its ``fc_`` id is not tied to its reasoning item
  (pydantic-ai replays calls that way), so only calls that keep their item id
  are judged.
"""

from __future__ import annotations

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import RESPONSES_CALL_WITHOUT_REASONING_400, RESPONSES_REASONING
from toolwire.harness.model import OPENAI_RESPONSES, Conversation, ThinkingBlock, ToolCall, Turn

ITEM_SEPARATED = rule(
    "reasoning.item_separated",
    "MUST",
    "conversion roundtrip",
    "A function_call replayed to the Responses API with its item id keeps, before it in "
    "its turn, the reasoning items that preceded it in the source.",
    RESPONSES_REASONING,
    RESPONSES_CALL_WITHOUT_REASONING_400,
    dialects=frozenset({"openai-responses"}),
    evidence=(
        rejected(
            "https://github.com/continuedev/continue/issues/10018",
            "api.openai.com/v1/responses 400 invalid_request_error \"Item 'fc_...' of type "
            "'function_call' was provided without its required 'reasoning' item: 'rs_...'.\"",
        ),
        rejected(
            "https://github.com/cline/cline/issues/12242",
            "the same 400 for gpt-5.5 through cline's openai-native provider",
        ),
    ),
    fix=(
        "When a function_call goes back to the Responses API with its fc_ item id, send the "
        "reasoning items that preceded it in the model's output right before it; or drop the "
        "item id (send the call by call_id alone) when the reasoning cannot be kept."
    ),
)


def _preceding_reasoning(turn: Turn) -> dict[str, list[ThinkingBlock]]:
    """call_id -> the reasoning items that led to that call in its turn:
    parallel calls after one reasoning item all follow it; text or a new
    reasoning item after a call starts another group."""
    found: dict[str, list[ThinkingBlock]] = {}
    group: list[ThinkingBlock] = []
    after_call = False
    for block in turn.blocks:
        if isinstance(block, ThinkingBlock) and block.origin == "reasoning_item":
            if after_call:
                group, after_call = [], False
            group.append(block)
        elif isinstance(block, ToolCall):
            if block.id and group:
                found[block.id] = list(group)
            after_call = True
        else:
            group, after_call = [], False
    return found


def check_item_separated(source: Conversation, output: Conversation) -> list[Finding] | None:
    before: dict[str, list[ThinkingBlock]] = {}
    for turn in source.turns:
        before.update(_preceding_reasoning(turn))
    if not before:
        return None
    found: list[Finding] = []
    judged = False
    for t, turn in enumerate(output.turns):
        kept_ids = {
            b.item_id or b.encrypted_content for b in turn.blocks if isinstance(b, ThinkingBlock)
        }
        for b, block in enumerate(turn.blocks):
            if not isinstance(block, ToolCall) or block.id not in before:
                continue
            judged = True
            if block.item_id is None:
                continue  # a call without its fc_ id is not tied to its reasoning
            needed = [r.item_id or r.encrypted_content for r in before[block.id]]
            missing = [label for label in needed if label not in kept_ids]
            if missing:
                found.append(
                    finding(
                        "reasoning.item_separated",
                        f"function_call {block.item_id!r} (call {block.id!r}) keeps its item id "
                        f"but lost the reasoning item {str(missing[0])[:40]!r} that preceded it; "
                        "OpenAI rejects it (HTTP 400: provided without its required "
                        "'reasoning' item)",
                        block_path(output, t, b),
                    )
                )
    return found if judged else None


def _separated(conversion: ConversionUnderTest) -> list[Finding] | None:
    source, output = conversion.source.conversation, conversion.output.conversation
    if source is None or output is None or output.dialect != OPENAI_RESPONSES:
        return None
    return check_item_separated(source, output)


def _separated_trip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    source, output = roundtrip.original.conversation, roundtrip.returned.conversation
    if source is None or output is None or output.dialect != OPENAI_RESPONSES:
        return None
    return check_item_separated(source, output)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"reasoning.item_separated": _separated}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"reasoning.item_separated": _separated_trip}
