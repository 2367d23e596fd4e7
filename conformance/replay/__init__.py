"""The replay rules: across a conversation, what the model returned comes back unchanged.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.replay import assistant_altered
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/replay.md).
INTRO = "Across a conversation, what the model returned comes back unchanged."
# Every module of the family that holds a definition or a check.
MODULES = (assistant_altered,)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (assistant_altered.ASSISTANT_ALTERED,)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
