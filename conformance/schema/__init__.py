"""The schema rules: every payload produced has the shape its dialect's documentation requires.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.rule import Rule
from toolwire.conformance.schema import gemini_parameters, validation

# The family's page opens with this (docs/rules/schema.md).
INTRO = "Every payload produced has the shape its dialect's documentation requires."
# Every module of the family that holds a definition or a check.
MODULES = (
    validation,
    gemini_parameters,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    validation.REQUEST,
    gemini_parameters.GEMINI_PARAMETERS,
    validation.RESPONSE,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
