"""Every check, by scope and rule code, in catalogue order: what the engine runs.

Each family package merges the check tables of its modules
(``context.checks_of``); a test keeps this registry and the catalogue in step
(every scope a rule names has a check, and no check lacks a rule).
"""

from __future__ import annotations

from toolwire.conformance.catalogue import FAMILY_PACKAGES
from toolwire.conformance.context import ConversionCheck, PayloadCheck, ReplayCheck, RoundTripCheck

PAYLOAD_CHECKS: dict[str, PayloadCheck] = {}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {}
REPLAY_CHECKS: dict[str, ReplayCheck] = {}
for _package in FAMILY_PACKAGES:
    PAYLOAD_CHECKS.update(_package.PAYLOAD_CHECKS)
    CONVERSION_CHECKS.update(_package.CONVERSION_CHECKS)
    ROUNDTRIP_CHECKS.update(_package.ROUNDTRIP_CHECKS)
    REPLAY_CHECKS.update(_package.REPLAY_CHECKS)
