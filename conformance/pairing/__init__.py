"""The pairing rules: tool calls and their results find each other by id.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.pairing import id_changed, unanswered_call
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/pairing.md).
INTRO = "Tool calls and their results find each other by id."
# Every module of the family that holds a definition or a check.
MODULES = (
    unanswered_call,
    id_changed,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    unanswered_call.CALL_ID_MISSING,
    unanswered_call.CALL_ID_DUPLICATE,
    unanswered_call.ORPHAN_RESULT,
    unanswered_call.DUPLICATE_RESULT,
    unanswered_call.UNANSWERED_CALL,
    id_changed.ID_CHANGED,
    unanswered_call.ID_PATTERN,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
