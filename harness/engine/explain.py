"""Failure explanations in five parts (DESIGN.md "A failure, explained").

1. case id and rule code; 2. the rule in one sentence; 3. the minimal
structural diff at a JSON path, long strings shortened; 4. the nearest
explanation; 5. the next step: the baseline line and the absolute URL of the rule's page.
"""

from __future__ import annotations

from typing import Any

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.findings import Finding
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.gate import must_under
from toolwire.harness.redaction import redact
from toolwire.harness.rule_links import rule_reference

MAX_DIFF_LINES = 12
MAX_VALUE_CHARS = 80
MAX_FINDINGS_SHOWN = 5


def shorten(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """repr of a value, cut in the middle when long, invisible characters shown;
    redacted before the cut (a key cut in two no longer looks like one)."""
    text = redact(repr(value))
    if len(text) > limit:
        keep = (limit - 5) // 2
        text = f"{text[:keep]} ... {text[-keep:]}"
    return text


def finding_diff(item: Finding) -> str:
    """The diff of a finding: both values compared, or the one it gave."""
    if item.has_expected and item.has_actual:
        return diff_text(item.expected, item.actual)
    if item.has_actual:
        return f"$: got {shorten(item.actual)}"
    if item.has_expected:
        return f"$: expected {shorten(item.expected)}"
    return ""


def diff_text(expected: Any, actual: Any) -> str:
    """The minimal difference between two JSON values, one line per change."""
    from deepdiff import DeepDiff  # imported here: explanations are only built on failure

    lines: list[str] = []
    diff = DeepDiff(expected, actual, verbose_level=2, ignore_order=False)
    for change, items in diff.items():
        entries = items.items() if isinstance(items, dict) else ((item, None) for item in items)
        for path, detail in entries:
            lines.append(_diff_line(str(change), str(path), detail))
    if not lines:
        return ""
    if len(lines) > MAX_DIFF_LINES:
        hidden = len(lines) - MAX_DIFF_LINES
        lines = [*lines[:MAX_DIFF_LINES], f"... and {hidden} more differences"]
    return "\n".join(lines)


def _diff_line(change: str, path: str, detail: Any) -> str:
    path = path.replace("root", "$", 1)
    if isinstance(detail, dict) and "old_value" in detail:
        return (
            f"{path}: expected {shorten(detail['old_value'])}, got {shorten(detail['new_value'])}"
        )
    if change.endswith("_added"):
        return f"{path}: unexpected {shorten(detail)}" if detail is not None else f"{path}: added"
    if change.endswith("_removed"):
        return f"{path}: missing {shorten(detail)}" if detail is not None else f"{path}: missing"
    return f"{path}: {change} {shorten(detail)}"


def baseline_line(verdict: Verdict) -> str:
    return f"{verdict.case_id}::{verdict.rule_code}"


def explain(verdict: Verdict) -> str:
    """The five-part explanation of a verdict that is not a pass."""
    if verdict.outcome == "stale":  # nothing to fix in the converter: only the list
        return f"STALE {verdict.item_id}\n  Next: {verdict.message}"
    rule = RULES_BY_CODE.get(verdict.rule_code)
    level = f" ({verdict.level} under profile {verdict.profile})" if verdict.level else ""
    lines = [f"{verdict.outcome.upper()} {verdict.item_id}{level}"]
    if rule is not None:
        lines.append(f"  Rule: {rule.statement}")
    stricter = must_under(verdict.rule_code, verdict.profile) if verdict.outcome == "warn" else None
    if stricter:
        lines.append(f"  Stricter: {stricter}")
    if verdict.message and not verdict.findings:
        lines.append(f"  Why: {verdict.message}")
    for located in verdict.findings[:MAX_FINDINGS_SHOWN]:
        where = f"{located.where} at {located.path}" if located.path else located.where
        lines.append(f"  Where: {where}")
        if located.diff:
            lines.append("  Diff:")
            lines.extend(f"    {line}" for line in located.diff.splitlines())
        lines.append(f"  Why: {located.message}")
    if len(verdict.findings) > MAX_FINDINGS_SHOWN:
        lines.append(f"  ... and {len(verdict.findings) - MAX_FINDINGS_SHOWN} more findings")
    if rule is not None:
        lines.append(
            f"  Next: fix the converter, or list it in a baseline file: "
            f"{baseline_line(verdict)}  # reason"
        )
        lines.append(f"  Docs: {rule_reference(rule.code)}")
    return "\n".join(lines)
