"""The fidelity rules: what the model said, and the tools it was given, survive conversion.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.fidelity import (
    arguments,
    pairwise,
    roundtrip,
    stop_reason,
    text,
    tool_definitions,
)
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/fidelity.md).
INTRO = "What the model said, and the tools it was given, survive conversion."
# Every module of the family that holds a definition or a check.
MODULES = (
    arguments,
    text,
    tool_definitions,
    stop_reason,
    roundtrip,
    pairwise,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    arguments.ARGUMENTS,
    text.TEXT,
    text.ERROR_FLAG,
    tool_definitions.TOOL_DEFINITIONS,
    tool_definitions.TOOL_CHOICE,
    stop_reason.STOP_REASON,
    stop_reason.STOP_REASON_CONTENT,
    stop_reason.EMPTY_TEXT_ADDED,
    stop_reason.USAGE,
    tool_definitions.EMPTY_CONTENT,
    roundtrip.ROUNDTRIP,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
