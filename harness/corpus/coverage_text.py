"""The coverage report as text tables, for `toolwire corpus list`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolwire.harness.corpus.coverage import NEGATIVE_BY_ADAPTER, CoverageReport
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS

_ZERO = "-"


def coverage_lines(report: CoverageReport) -> list[str]:
    """Counts by direction and provenance, features × dialects, rules × positive/negative."""
    lines = [
        "by provenance: " + counts_line(report.provenance),
        "",
        "directions (cases with payloads of each kind; A->B: through their twins)",
        *_table(_direction_rows(report), numeric_from=1),
        "",
        "features × dialects",
        *_table(_feature_rows(report), numeric_from=1),
        "",
        f"rules × positive/negative cases (judged by {', '.join(report.judged_with)})",
        *_table(_rule_rows(report), numeric_from=2),
        "",
        "missing positive: " + (", ".join(report.missing_positive) or "none"),
        "missing negative: " + (", ".join(report.missing_negative) or "none"),
    ]
    lines.extend(f"note: {note}" for note in report.notes)
    return lines


def counts_line(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "-"


def _direction_rows(report: CoverageReport) -> list[tuple[str, ...]]:
    by_direction: dict[str, dict[str, int]] = {}
    for key, count in report.directions.items():
        kind, direction = key.split(" ", 1)
        by_direction.setdefault(direction, {})[kind] = count
    ordered = sorted(by_direction, key=lambda name: ("->" in name, _dialect_order(name)))
    rows: list[tuple[str, ...]] = [("DIRECTION", *PAYLOAD_KINDS)]
    for direction in ordered:
        counts = by_direction[direction]
        rows.append((direction, *(str(counts.get(kind, 0) or _ZERO) for kind in PAYLOAD_KINDS)))
    return rows


def _dialect_order(direction: str) -> tuple[int, ...]:
    return tuple(DIALECTS.index(name) for name in direction.split("->") if name in DIALECTS)


def _feature_rows(report: CoverageReport) -> list[tuple[str, ...]]:
    header = ("FEATURE", *DIALECTS, "total")
    rows: list[tuple[str, ...]] = [header]
    for feature, by_dialect in report.features_by_dialect.items():
        cells = [str(by_dialect.get(dialect, 0) or _ZERO) for dialect in DIALECTS]
        rows.append((feature, *cells, str(report.features.get(feature, 0))))
    return rows


def _rule_rows(report: CoverageReport) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = [("RULE", "LEVEL", "POSITIVE", "NEGATIVE")]
    for rule in report.rules:
        if rule.negative_by == NEGATIVE_BY_ADAPTER:
            negative = "adapter self-test"
        else:
            negative = str(len(rule.negative) or _ZERO)
        rows.append((rule.code, rule.level, str(len(rule.positive) or _ZERO), negative))
    return rows


def _table(rows: Sequence[tuple[str, ...]], numeric_from: int) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if column >= numeric_from else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
