"""Every check, by rule code and scope: what the engine runs.

Each family module exports ``PAYLOAD_CHECKS``, ``CONVERSION_CHECKS``,
``ROUNDTRIP_CHECKS`` and optionally ``REPLAY_CHECKS``; a test keeps this
registry and the catalogue in step (every scope a rule names has a check).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from toolwire.conformance.catalogue import FAMILIES
from toolwire.conformance.context import ConversionCheck, PayloadCheck, ReplayCheck, RoundTripCheck


def _family_modules() -> list[ModuleType]:
    modules = []
    for family in FAMILIES:
        try:
            modules.append(import_module(f"toolwire.conformance.{family}"))
        except ModuleNotFoundError as error:
            if error.name != f"toolwire.conformance.{family}":
                raise
    return modules


def _collect() -> tuple[
    dict[str, PayloadCheck],
    dict[str, ConversionCheck],
    dict[str, RoundTripCheck],
    dict[str, ReplayCheck],
]:
    payload: dict[str, PayloadCheck] = {}
    conversion: dict[str, ConversionCheck] = {}
    roundtrip: dict[str, RoundTripCheck] = {}
    replay: dict[str, ReplayCheck] = {}
    for module in _family_modules():
        payload.update(getattr(module, "PAYLOAD_CHECKS", {}))
        conversion.update(getattr(module, "CONVERSION_CHECKS", {}))
        roundtrip.update(getattr(module, "ROUNDTRIP_CHECKS", {}))
        replay.update(getattr(module, "REPLAY_CHECKS", {}))
    return payload, conversion, roundtrip, replay


PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = _collect()
