"""What every report needs from a results document: outcomes, groups, the matrix.

Pure functions over the document dict (harness/reports/results.schema.json),
so a report renders the same from a fresh run or a file written months ago.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

OUTCOMES = ("pass", "fail", "warn", "error", "unsupported", "xfail", "stale")
# Outcomes that fail a run (Verdict.is_failure), and those a reader must see.
FAILING = ("fail", "error", "stale")
PROBLEMS = ("fail", "error", "stale", "warn")
# Worst first: the outcome a matrix cell shows when its verdicts differ.
SEVERITY = ("error", "fail", "stale", "warn", "xfail", "pass", "unsupported")
ADAPTER_FAMILY = "adapter"  # pseudo-rules `convert` and `unsupported` judge the adapter
NO_FEATURE = "(no feature)"

Record = Mapping[str, Any]


def family_of(rule: str) -> str:
    """The rule family (``pairing`` of ``pairing.id_changed``); pseudo-rules → ``adapter``."""
    family, dot, _ = rule.partition(".")
    return family if dot else ADAPTER_FAMILY


def status(document: Record) -> str:
    """PASS, FAIL or BROKEN: the run's verdict.

    BROKEN only when the adapter failed on every case (the results' ``broken``
    line). An adapter that errors on some payloads fails the run (exit 3) but
    its other verdicts stand, so the reports show FAIL with the error counts.
    """
    if document.get("broken"):
        return "BROKEN"
    return "FAIL" if document.get("exit_code") in (1, 3) else "PASS"


def adapter_label(document: Record) -> str:
    adapter = document["adapter"]
    return f"{adapter['name']} {adapter['version']}".strip()


def problems(document: Record, outcomes: Sequence[str] = PROBLEMS) -> list[Record]:
    """Verdicts with one of ``outcomes``, worst outcome first, then by case and rule."""
    rank = {outcome: index for index, outcome in enumerate(SEVERITY)}
    chosen = [v for v in document["verdicts"] if v["outcome"] in outcomes]
    return sorted(chosen, key=lambda v: (rank[v["outcome"]], v["case"], v["rule"]))


def group_by_rule(records: Iterable[Record]) -> list[tuple[str, list[Record]]]:
    """Records grouped by rule code: largest group first, ties by code."""
    groups: dict[str, list[Record]] = {}
    for record in records:
        groups.setdefault(record["rule"], []).append(record)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def worst(counts: Mapping[str, int]) -> str | None:
    """The most severe outcome with a non-zero count, None for an empty cell."""
    return next((outcome for outcome in SEVERITY if counts.get(outcome)), None)


def judged(totals: Mapping[str, int]) -> int:
    """Verdicts that judged something: all but ``unsupported``."""
    return sum(n for outcome, n in totals.items() if outcome != "unsupported")


class Matrix:
    """Verdict counts by rule family (rows) and case feature (columns)."""

    def __init__(self, document: Record) -> None:
        features_of: Mapping[str, Sequence[str]] = document.get("case_features", {})
        self.cells: dict[tuple[str, str], Counter[str]] = {}
        # Row totals count each verdict once (a case with two features is in two cells).
        self.row_totals: dict[str, Counter[str]] = {}
        features: set[str] = set()
        for verdict in document["verdicts"]:
            family = family_of(verdict["rule"])
            self.row_totals.setdefault(family, Counter())[verdict["outcome"]] += 1
            for feature in features_of.get(verdict["case"]) or (NO_FEATURE,):
                features.add(feature)
                self.cells.setdefault((family, feature), Counter())[verdict["outcome"]] += 1
        # The adapter's own row last: it is about the converter, not a rule family.
        self.families = sorted(self.row_totals, key=lambda f: (f == ADAPTER_FAMILY, f))
        self.features = sorted(features, key=lambda f: (f == NO_FEATURE, f))

    def cell(self, family: str, feature: str) -> Counter[str]:
        return self.cells.get((family, feature), Counter())

    def family_totals(self, family: str) -> Counter[str]:
        return self.row_totals.get(family, Counter())


# What each rule's row counts: exercised = every verdict the rule gave (one per
# case that held what it judges; a rule with nothing to judge gives none).
RULE_COLUMNS = ("exercised", "pass", "fail", "warn", "xfail", "stale")


def rule_totals(
    pairs: Iterable[tuple[str, str]], codes: Iterable[str] = ()
) -> dict[str, dict[str, int]]:
    """rule -> {exercised, pass, fail, warn, xfail, stale} from (rule, outcome)
    pairs; pseudo-rules (``convert``, ``unsupported``) are not rules. Every code
    of ``codes`` gets a row, so a rule that judged nothing shows 0."""
    rows: dict[str, dict[str, int]] = {code: dict.fromkeys(RULE_COLUMNS, 0) for code in codes}
    for rule, outcome in pairs:
        if family_of(rule) == ADAPTER_FAMILY or outcome not in RULE_COLUMNS:
            continue
        row = rows.setdefault(rule, dict.fromkeys(RULE_COLUMNS, 0))
        row["exercised"] += 1
        row[outcome] += 1
    return dict(sorted(rows.items()))


def document_rule_totals(document: Record) -> dict[str, dict[str, int]]:
    """The document's per-rule counts; computed from its verdicts for a document
    written before ``totals_by_rule`` existed."""
    stored = document.get("totals_by_rule")
    if stored is not None:
        return dict(stored)
    return rule_totals((v["rule"], v["outcome"]) for v in document["verdicts"])


def exercised_line(rows: Mapping[str, Mapping[str, int]]) -> str:
    """``37 of 41 rules exercised; none judged: a, b``: the compact form."""
    idle = [code for code, row in rows.items() if not row["exercised"]]
    line = f"{len(rows) - len(idle)} of {len(rows)} rules exercised"
    return f"{line}; no case to judge for {', '.join(idle)}" if idle else line


def outcome_line(totals: Mapping[str, int]) -> str:
    """``516 pass  3 fail``: the non-zero outcomes in canonical order."""
    parts = [f"{totals[o]} {o}" for o in OUTCOMES if totals.get(o)]
    return "  ".join(parts) if parts else "no verdicts"
