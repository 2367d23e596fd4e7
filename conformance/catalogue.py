"""The rule catalogue: every rule, read from the definitions in the family
folders (``conformance/<family>/``), in the order of the rule pages.

Nothing here is written by hand beside the definitions: a rule is added by
defining it in its family's module and listing it in the family's
``__init__`` (docs/architecture.md, "Adding a rule").
"""

from __future__ import annotations

from types import ModuleType

from toolwire.conformance import (
    fidelity,
    ordering,
    pairing,
    reasoning,
    replay,
    schema,
    stream,
    xml,
)
from toolwire.conformance.profiles import PROFILES, Profile
from toolwire.conformance.rule import Rule

FAMILY_PACKAGES: tuple[ModuleType, ...] = (
    pairing,
    ordering,
    fidelity,
    reasoning,
    xml,
    stream,
    replay,
    schema,
)
FAMILIES: tuple[str, ...] = tuple(package.__name__.rsplit(".", 1)[1] for package in FAMILY_PACKAGES)

RULES: tuple[Rule, ...] = tuple(rule for package in FAMILY_PACKAGES for rule in package.RULES)
RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
RULE_CODES: tuple[str, ...] = tuple(rule.code for rule in RULES)


def get_rule(code: str) -> Rule:
    return RULES_BY_CODE[code]


def rules_in_family(family: str) -> tuple[Rule, ...]:
    return tuple(rule for rule in RULES if rule.family == family)


def family_intro(family: str) -> str:
    """The sentence that opens the family's page (its ``INTRO``)."""
    return str(FAMILY_PACKAGES[FAMILIES.index(family)].INTRO)


def defined_in(code: str) -> str:
    """The file that defines the rule, from the repository's top:
    ``conformance/pairing/orphan_result.py``."""
    rule = RULES_BY_CODE[code]
    package = FAMILY_PACKAGES[FAMILIES.index(rule.family)]
    modules: tuple[ModuleType, ...] = package.MODULES
    for module in modules:
        if any(value is rule for value in vars(module).values()):
            return "conformance/" + module.__name__.split(".", 2)[2].replace(".", "/") + ".py"
    raise LookupError(f"{code} is listed in {package.__name__} but defined in none of its modules")


def profile(name: str) -> Profile:
    return PROFILES[name]
