"""``toolwire diff OLD NEW``: what an adapter upgrade or a corpus update changed.

Verdicts are matched by (case, rule), not by adapter name, so two versions
of one converter (or two converters) compare. A verdict *newly fails* when
it fails in NEW (fail, error or stale) and did not in OLD, including one
that did not exist in OLD (a new case or rule that fails); it *newly
passes* when it passes in NEW and failed in OLD. Every other outcome change
is listed as changed; verdicts only in one file as appeared or disappeared.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from toolwire.harness.reports.summary import FAILING, Record

# Header fields whose change explains a changed result, as (label, path).
HEADER_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("adapter.name", ("adapter", "name")),
    ("adapter.version", ("adapter", "version")),
    ("adapter.spec", ("adapter", "spec")),
    ("corpus.version", ("corpus", "version")),
    ("corpus.cases", ("corpus", "cases")),
    ("rules_version", ("rules_version",)),
    ("toolwire", ("toolwire",)),
    ("profiles", ("profiles",)),
    ("python", ("python",)),
    ("broken", ("broken",)),
)

Key = tuple[str, str]


@dataclass(frozen=True)
class Change:
    case: str
    rule: str
    old: str | None  # outcome in OLD; None when the verdict did not exist
    new: str | None
    message: str = ""  # NEW's one line (OLD's for a disappeared verdict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "rule": self.rule,
            "old": self.old,
            "new": self.new,
            "message": self.message,
        }


@dataclass(frozen=True)
class ResultsDiff:
    header: tuple[tuple[str, Any, Any], ...] = ()
    newly_failing: tuple[Change, ...] = ()
    newly_passing: tuple[Change, ...] = ()
    changed: tuple[Change, ...] = ()
    appeared: tuple[Change, ...] = ()
    disappeared: tuple[Change, ...] = ()
    old_totals: dict[str, int] = field(default_factory=dict)
    new_totals: dict[str, int] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        """1 when something newly fails (a regression), else 0."""
        return 1 if self.newly_failing else 0

    @property
    def newly_failing_rules(self) -> dict[str, int]:
        counts = Counter(change.rule for change in self.newly_failing)
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    @property
    def identical(self) -> bool:
        return not (self.newly_failing or self.newly_passing or self.changed) and not (
            self.appeared or self.disappeared
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "header_changes": [{"field": f, "old": o, "new": n} for f, o, n in self.header],
            "totals": {"old": self.old_totals, "new": self.new_totals},
            "newly_failing_rules": self.newly_failing_rules,
            "newly_failing": [c.as_dict() for c in self.newly_failing],
            "newly_passing": [c.as_dict() for c in self.newly_passing],
            "changed": [c.as_dict() for c in self.changed],
            "appeared": [c.as_dict() for c in self.appeared],
            "disappeared": [c.as_dict() for c in self.disappeared],
        }


def diff_results(old: Record, new: Record) -> ResultsDiff:
    before = _by_key(old)
    after = _by_key(new)
    failing, passing, changed, appeared, disappeared = [], [], [], [], []
    for key, record in after.items():
        previous = before.get(key)
        was = previous["outcome"] if previous is not None else None
        now = record["outcome"]
        change = Change(key[0], key[1], was, now, record["message"])
        if now in FAILING and was not in FAILING:
            failing.append(change)
        elif now == "pass" and was in FAILING:
            passing.append(change)
        elif previous is not None and was != now:
            changed.append(change)
        if previous is None:
            appeared.append(change)
    for key, record in before.items():
        if key not in after:
            disappeared.append(Change(key[0], key[1], record["outcome"], None, record["message"]))
    return ResultsDiff(
        header=tuple(_header_changes(old, new)),
        newly_failing=tuple(failing),
        newly_passing=tuple(passing),
        changed=tuple(changed),
        appeared=tuple(appeared),
        disappeared=tuple(disappeared),
        old_totals=dict(old["totals"]),
        new_totals=dict(new["totals"]),
    )


def _by_key(document: Record) -> dict[Key, Record]:
    records = {(v["case"], v["rule"]): v for v in document["verdicts"]}
    return dict(sorted(records.items()))


def _header_changes(old: Record, new: Record) -> list[tuple[str, Any, Any]]:
    changes = []
    for label, path in HEADER_FIELDS:
        before, after = _get(old, path), _get(new, path)
        if before != after:
            changes.append((label, before, after))
    return changes


def _get(document: Record, path: tuple[str, ...]) -> Any:
    value: Any = document
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def render_diff_text(diff: ResultsDiff, old_name: str, new_name: str, limit: int = 200) -> str:
    """The diff for a terminal: header changes, then each list, ``limit`` lines each."""
    lines = [f"toolwire diff: {old_name} -> {new_name}"]
    for label, before, after in diff.header:
        lines.append(f"  changed {label}: {_show(before)} -> {_show(after)}")
    lines.append(f"  totals: {_totals(diff.old_totals)} -> {_totals(diff.new_totals)}")
    sections = (
        ("newly failing", diff.newly_failing),
        ("newly passing", diff.newly_passing),
        ("outcome changed", diff.changed),
        ("appeared", diff.appeared),
        ("disappeared", diff.disappeared),
    )
    for title, changes in sections:
        if not changes:
            continue
        lines.append(f"\n{title} ({len(changes)}):")
        for change in changes[:limit]:
            message = f"  {change.message}" if change.message and title != "newly passing" else ""
            lines.append(
                f"  {change.case}::{change.rule}  {change.old or '-'} -> {change.new or '-'}"
                f"{message}"
            )
        if len(changes) > limit:
            lines.append(f"  ... and {len(changes) - limit} more (--format json lists all)")
    if diff.newly_failing:
        rules = ", ".join(f"{rule} ({n})" for rule, n in diff.newly_failing_rules.items())
        lines.append(f"\nnewly failing rules: {rules}")
    if diff.identical:
        lines.append("\nno verdict changed")
    verdict = "REGRESSION" if diff.exit_code else "OK"
    lines.append(f"{verdict}: exit {diff.exit_code}")
    return "\n".join(lines) + "\n"


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "{}"
    return "none" if value is None else str(value)


def _totals(totals: dict[str, int]) -> str:
    return " ".join(f"{n} {o}" for o, n in totals.items() if n) or "nothing"
