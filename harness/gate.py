"""What fails a gate: ``--fail-on`` and what a SHOULD verdict would be elsewhere.

By default a run fails on MUST failures, adapter errors and stale baseline
entries (``must``). ``warn`` fails it on SHOULD verdicts too: the strict gate
of a converter whose target servers are stricter than the default profile.

A SHOULD verdict may be a MUST under another profile of its dialect (the
profile_levels of its rule, conformance/profiles.py): ``must_under`` says
which, and why, so a reader of a passing run knows what a stricter server
would answer. Pure: outcome strings, rule codes and profile names in, text out.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolwire.conformance.profiles import PROFILES

FAIL_ON: tuple[str, ...] = ("must", "warn")
DEFAULT_FAIL_ON = "must"
FAILING = frozenset({"fail", "error", "stale"})


def fails_gate(outcome: str, fail_on: str = DEFAULT_FAIL_ON) -> bool:
    """Whether a verdict with ``outcome`` fails a run gated at ``fail_on``."""
    return outcome in FAILING or (fail_on == "warn" and outcome == "warn")


def gated_exit_code(exit_code: int, outcomes: Iterable[str], fail_on: str) -> int:
    """The run's exit code under ``fail_on``: a clean run (0) becomes 1 when
    ``warn`` gates and a SHOULD verdict is there; 1, 2 and 3 stay as they are."""
    if exit_code != 0 or fail_on != "warn":
        return exit_code
    return 1 if any(outcome == "warn" for outcome in outcomes) else 0


def warnings_note(warnings: int, fail_on: str) -> str | None:
    """The line under a run's verdict that says what its SHOULD verdicts did."""
    if not warnings:
        return None
    if fail_on == "warn":
        return f"{warnings} SHOULD verdicts fail this run (--fail-on warn)"
    return (
        f"{warnings} SHOULD verdicts do not fail this run: --fail-on warn (or --strict) "
        "makes them fail it"
    )


def stricter_profiles(code: str, profile: str | None) -> list[str]:
    """The other profiles of ``profile``'s dialect under which rule ``code`` is a MUST."""
    from toolwire.conformance.catalogue import RULES_BY_CODE  # the rules: only when asked

    rule = RULES_BY_CODE.get(code)
    if rule is None or profile not in PROFILES:
        return []
    dialect = PROFILES[profile].dialect
    return [
        name
        for name, other in PROFILES.items()
        if name != profile
        and other.dialect == dialect
        and rule.applies_to_dialect(dialect)
        and rule.level_for(name) == "MUST"
    ]


def must_under(code: str, profile: str | None) -> str | None:
    """One line for a SHOULD verdict of rule ``code`` judged under ``profile``:
    the profiles that make it a MUST, what their servers are, and the evidence
    (a rejection first: what a real endpoint answered); None when no profile
    of the dialect makes it a MUST."""
    stricter = stricter_profiles(code, profile)
    if not stricter or profile is None:
        return None
    from toolwire.conformance.catalogue import RULES_BY_CODE

    rule = RULES_BY_CODE[code]
    dialect = PROFILES[profile].dialect
    evidence = sorted(rule.evidence, key=lambda item: item.kind != "rejection")
    why = f": {evidence[0].says}" if evidence else ""
    servers = " and ".join(
        f"{name} ({PROFILES[name].description.rstrip('.')})" for name in stricter
    )
    pick = " or ".join(f"--profile {dialect}={name}" for name in stricter)
    return f"MUST under {servers}{why}. Judge it so with {pick}"


def should_everywhere(code: str, profile: str | None) -> bool:
    """Whether rule ``code`` is a SHOULD (or out of scope) under every profile
    of ``profile``'s dialect: only ``--fail-on warn`` gates it."""
    return profile in PROFILES and not stricter_profiles(code, profile)
