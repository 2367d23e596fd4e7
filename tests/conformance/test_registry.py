"""Every rule of the catalogue has a check for each scope it names, and no more."""

from __future__ import annotations

import pytest

from toolwire.conformance.catalogue import RULES, RULES_BY_CODE
from toolwire.conformance.registry import (
    CONVERSION_CHECKS,
    PAYLOAD_CHECKS,
    REPLAY_CHECKS,
    ROUNDTRIP_CHECKS,
)

BY_SCOPE = {
    "payload": PAYLOAD_CHECKS,
    "conversion": CONVERSION_CHECKS,
    "roundtrip": ROUNDTRIP_CHECKS,
    "replay": REPLAY_CHECKS,
}


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_each_scope_of_a_rule_has_its_check(rule: object) -> None:
    code = rule.code  # type: ignore[attr-defined]
    for scope in rule.scopes:  # type: ignore[attr-defined]
        assert code in BY_SCOPE[scope], f"{code} names scope {scope} but has no check there"


@pytest.mark.parametrize("scope", sorted(BY_SCOPE))
def test_no_check_without_a_rule_or_outside_its_scopes(scope: str) -> None:
    for code in BY_SCOPE[scope]:
        assert code in RULES_BY_CODE, f"check for unknown code {code}"
        assert scope in RULES_BY_CODE[code].scopes, f"{code} has a {scope} check it does not name"
