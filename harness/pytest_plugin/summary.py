"""The ``toolwire`` section of pytest's terminal summary.

The adapter and totals by verdict outcome, then every SHOULD verdict (they
pass their items, so this is where a reader sees them), every stale
baseline entry, and a broken adapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from toolwire.harness.pytest_plugin.state import Judged

# SHOULD lines listed in full; the rest are counted (results.json has them all).
MAX_SHOULD_LINES = 50


def write_summary(terminal: pytest.TerminalReporter, judged: Judged) -> None:
    verdicts = judged.verdicts()  # under xdist, perhaps all but the passes
    counts = judged.outcome_counts()
    terminal.section("toolwire")
    terminal.write_line(
        f"adapter {judged.adapter_name} {judged.adapter_version} "
        f"on {len(judged.records)} cases: {sum(counts.values())} verdicts"
    )
    totals = "  ".join(f"{n} {outcome}" for outcome, n in counts.items() if n)
    terminal.write_line(totals or "no verdict")
    broken = judged.broken()
    if broken:
        terminal.write_line(f"BROKEN: {broken}", red=True)
    advice = [v for v in verdicts if v.outcome == "warn"]
    if advice:
        terminal.write_line(
            f"SHOULD verdicts ({len(advice)}; advice: they do not fail their cases):",
            yellow=True,
        )
        for verdict in advice[:MAX_SHOULD_LINES]:
            terminal.write_line(f"  {verdict.item_id}: {verdict.message}", yellow=True)
        if len(advice) > MAX_SHOULD_LINES:
            terminal.write_line(
                f"  ... and {len(advice) - MAX_SHOULD_LINES} more (--toolwire-report-dir "
                "writes them all to results.json)",
                yellow=True,
            )
    for verdict in verdicts:
        if verdict.outcome == "stale":
            terminal.write_line(
                f"stale baseline entry: {verdict.case_id}::{verdict.rule_code} (delete it)",
                yellow=True,
            )
