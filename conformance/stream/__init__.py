"""The stream rules: streams follow their grammar and reassemble into the right message.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order. What the
checks of a streamed response share (which grammar a stream follows, when a
check has something to judge) is ``applies``, which holds no rule."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.rule import Rule
from toolwire.conformance.stream import (
    call_index,
    chunk_id,
    event_order,
    index_collision,
    partial_json,
    reassembly,
    responses_events,
)

# The family's page opens with this (docs/rules/stream.md).
INTRO = "Streams follow their grammar and reassemble into the right message."
# Every module of the family that holds a definition or a check.
MODULES = (
    reassembly,
    index_collision,
    event_order,
    responses_events,
    partial_json,
    chunk_id,
    call_index,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    reassembly.REASSEMBLY,
    index_collision.INDEX_COLLISION,
    event_order.EVENT_ORDER,
    responses_events.ITEM_REFERENCE,
    responses_events.DONE_CONSISTENT,
    partial_json.PARTIAL_JSON,
    chunk_id.CHUNK_ID,
    call_index.CALL_INDEX,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
