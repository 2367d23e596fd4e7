"""The ordering rules: results, text, thinking and system prompts sit where each dialect requires.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order. What the
request checks share (the answer window, whether the server merges same-role
messages, when a check has something to judge) is ``applies``, which holds no
rule."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.ordering import (
    block_order,
    parallel_calls_split,
    parallel_results_split,
    result_after_text,
    result_not_adjacent,
    result_order,
    role_alternation,
    system_placement,
)
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/ordering.md).
INTRO = "Results, text, thinking and system prompts sit where each dialect requires."
# Every module of the family that holds a definition or a check.
MODULES = (
    result_not_adjacent,
    result_after_text,
    parallel_results_split,
    role_alternation,
    system_placement,
    block_order,
    result_order,
    parallel_calls_split,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    result_not_adjacent.RESULT_NOT_ADJACENT,
    result_after_text.RESULT_AFTER_TEXT,
    parallel_results_split.PARALLEL_RESULTS_SPLIT,
    role_alternation.ROLE_ALTERNATION,
    system_placement.SYSTEM_PLACEMENT,
    block_order.BLOCK_ORDER,
    result_order.RESULT_ORDER,
    parallel_calls_split.PARALLEL_CALLS_SPLIT,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
