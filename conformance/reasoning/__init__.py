"""The reasoning rules: reasoning that must be replayed comes back whole and unchanged.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.reasoning import (
    altered,
    call_signature_lost,
    carried,
    invented,
    item_separated,
    item_unfollowed,
    position,
    replay_forbidden,
    replay_missing,
    signature_invented,
    signature_lost,
)
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/reasoning.md).
INTRO = "Reasoning that must be replayed comes back whole and unchanged."
# Every module of the family that holds a definition or a check (the
# wrappers in pairwise.py hold neither).
MODULES = (
    replay_missing,
    replay_forbidden,
    altered,
    signature_lost,
    call_signature_lost,
    position,
    item_unfollowed,
    item_separated,
    carried,
    invented,
    signature_invented,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    replay_missing.REPLAY_MISSING,
    replay_forbidden.REPLAY_FORBIDDEN,
    altered.ALTERED,
    signature_lost.SIGNATURE_LOST,
    call_signature_lost.CALL_SIGNATURE_LOST,
    position.POSITION,
    item_unfollowed.ITEM_UNFOLLOWED,
    item_separated.ITEM_SEPARATED,
    carried.DROPPED,
    carried.NOT_CARRIED,
    invented.INVENTED,
    signature_invented.SIGNATURE_INVENTED,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
