"""The pairing rules: tool calls and their results find each other by id.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.pairing import call_sites, id_changed
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/pairing.md).
INTRO = "Tool calls and their results find each other by id."
# Every module of the family that holds a definition or a check.
MODULES = (
    call_sites,
    id_changed,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    call_sites.CALL_ID_MISSING,
    call_sites.CALL_ID_DUPLICATE,
    call_sites.ORPHAN_RESULT,
    call_sites.DUPLICATE_RESULT,
    call_sites.UNANSWERED_CALL,
    id_changed.ID_CHANGED,
    call_sites.ID_PATTERN,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
