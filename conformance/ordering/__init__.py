"""The ordering rules: results, text, thinking and system prompts sit where each dialect requires.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.ordering import block_order, parallel_calls_split, result_not_adjacent
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/ordering.md).
INTRO = "Results, text, thinking and system prompts sit where each dialect requires."
# Every module of the family that holds a definition or a check.
MODULES = (
    result_not_adjacent,
    block_order,
    parallel_calls_split,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    result_not_adjacent.RESULT_NOT_ADJACENT,
    result_not_adjacent.RESULT_AFTER_TEXT,
    result_not_adjacent.PARALLEL_RESULTS_SPLIT,
    result_not_adjacent.ROLE_ALTERNATION,
    result_not_adjacent.SYSTEM_PLACEMENT,
    block_order.BLOCK_ORDER,
    result_not_adjacent.RESULT_ORDER,
    parallel_calls_split.PARALLEL_CALLS_SPLIT,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
