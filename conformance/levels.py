"""Why a rule is MUST: the evidence behind each MUST level (docs/levels.md),
read from the rule definitions (``evidence=``).

A rule is MUST only where a provider's documentation requires the form, or a
real API rejected the payload, or (for a conversion only) both dialects
document a field with the same meaning, so that dropping or changing it sends
something else than the source said. Each MUST rule (at its base level or
under any profile) carries that evidence; tests/conformance/test_levels.py
fails on a MUST rule without it, and the rule pages show it. The kinds are
described in ``conformance/rule.py``.
"""

from __future__ import annotations

from toolwire.conformance.catalogue import RULES, RULES_BY_CODE
from toolwire.conformance.rule import Evidence, Rule

MUST_EVIDENCE: dict[str, tuple[Evidence, ...]] = {
    rule.code: rule.evidence for rule in RULES if rule.evidence
}


def can_be_must(rule: Rule) -> bool:
    """Whether ``rule`` is MUST at its base level or under any profile."""
    return rule.can_be_must


def can_be_should(rule: Rule) -> bool:
    """Whether ``rule`` is SHOULD at its base level or under any profile."""
    return rule.can_be_should


def evidence_for(code: str) -> tuple[Evidence, ...]:
    return RULES_BY_CODE[code].evidence


def must_rules() -> tuple[Rule, ...]:
    return tuple(rule for rule in RULES if can_be_must(rule))
