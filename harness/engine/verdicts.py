"""Verdicts: the outcome of one rule on one case, with its explanation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Outcome: TypeAlias = Literal["pass", "fail", "warn", "error", "unsupported", "xfail", "stale"]
OUTCOMES: tuple[Outcome, ...] = ("pass", "fail", "warn", "error", "unsupported", "xfail", "stale")


# Pseudo rule codes for verdicts that are about the adapter, not a rule.
CONVERT = "convert"  # the adapter raised, hung or returned something unusable
UNSUPPORTED = "unsupported"  # the adapter declares no direction for the case


@dataclass(frozen=True)
class Located:
    """One finding, placed: which direction and payload it came from."""

    where: str  # "request anthropic-messages->openai-chat, interaction 1"
    message: str
    path: str
    diff: str = ""


@dataclass(frozen=True)
class Verdict:
    case_id: str
    rule_code: str
    adapter: str
    outcome: Outcome
    level: str | None = None  # MUST | SHOULD, under the profile that applied
    profile: str | None = None
    message: str = ""  # one line
    findings: tuple[Located, ...] = ()
    directions: tuple[str, ...] = ()
    baseline_reason: str | None = field(default=None, compare=False)

    @property
    def item_id(self) -> str:
        return f"{self.case_id}::{self.rule_code}[{self.adapter}]"

    @property
    def is_failure(self) -> bool:
        """Whether this verdict fails a run (MUST failures, errors, stale baseline entries)."""
        return self.outcome in ("fail", "error", "stale")


def outcome_totals(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """How many verdicts have each outcome, every outcome in OUTCOMES order."""
    counts = Counter(v.outcome for v in verdicts)
    return {outcome: counts.get(outcome, 0) for outcome in OUTCOMES}
