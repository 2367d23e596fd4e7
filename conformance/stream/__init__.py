"""The stream rules: streams follow their grammar and reassemble into the right message.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.rule import Rule
from toolwire.conformance.stream import event_order, reassembly, responses_events

# The family's page opens with this (docs/rules/stream.md).
INTRO = "Streams follow their grammar and reassemble into the right message."
# Every module of the family that holds a definition or a check.
MODULES = (
    reassembly,
    event_order,
    responses_events,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    reassembly.REASSEMBLY,
    event_order.INDEX_COLLISION,
    event_order.EVENT_ORDER,
    responses_events.ITEM_REFERENCE,
    responses_events.DONE_CONSISTENT,
    event_order.PARTIAL_JSON,
    event_order.CHUNK_ID,
    event_order.CALL_INDEX,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
