"""The pairing rules: tool calls and their results find each other by id.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order. What
several checks share (the calls with their paths, when a check has something
to judge) is ``applies``, which holds no rule."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.pairing import (
    call_id_duplicate,
    call_id_missing,
    duplicate_result,
    id_changed,
    id_pattern,
    orphan_result,
    unanswered_call,
)
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/pairing.md).
INTRO = "Tool calls and their results find each other by id."
# Every module of the family that holds a definition or a check.
MODULES = (
    call_id_missing,
    call_id_duplicate,
    orphan_result,
    duplicate_result,
    unanswered_call,
    id_changed,
    id_pattern,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    call_id_missing.CALL_ID_MISSING,
    call_id_duplicate.CALL_ID_DUPLICATE,
    orphan_result.ORPHAN_RESULT,
    duplicate_result.DUPLICATE_RESULT,
    unanswered_call.UNANSWERED_CALL,
    id_changed.ID_CHANGED,
    id_pattern.ID_PATTERN,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
