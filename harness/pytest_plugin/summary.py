"""The ``toolwire`` section of pytest's terminal summary.

The adapter and totals by verdict outcome, then every SHOULD verdict (they
pass their items unless --toolwire-fail-on warn, so this is where a reader
sees them) with the profiles under which each rule is a MUST, every stale
baseline entry, and a broken adapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from toolwire.harness.engine.verdicts import Verdict
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
        effect = (
            "they fail their cases: --toolwire-fail-on warn"
            if judged.fail_on == "warn"
            else "advice: they do not fail their cases; --toolwire-fail-on warn fails them"
        )
        terminal.write_line(f"SHOULD verdicts ({len(advice)}; {effect}):", yellow=True)
        for verdict in advice[:MAX_SHOULD_LINES]:
            terminal.write_line(f"  {verdict.item_id}: {verdict.message}", yellow=True)
        if len(advice) > MAX_SHOULD_LINES:
            terminal.write_line(
                f"  ... and {len(advice) - MAX_SHOULD_LINES} more (--toolwire-report-dir "
                "writes them all to results.json)",
                yellow=True,
            )
        _stricter(terminal, advice)
    for verdict in verdicts:
        if verdict.outcome == "stale":
            terminal.write_line(
                f"stale baseline entry: {verdict.case_id}::{verdict.rule_code} (delete it)",
                yellow=True,
            )


def _stricter(terminal: pytest.TerminalReporter, advice: list[Verdict]) -> None:
    """Once per rule and profile: where its SHOULD verdicts would be a MUST, and why."""
    from toolwire.harness.gate import must_under

    seen: set[tuple[str, str | None]] = set()
    for verdict in advice:
        key = (verdict.rule_code, verdict.profile)
        if key in seen:
            continue
        seen.add(key)
        line = must_under(*key)
        if line:
            terminal.write_line(f"{verdict.rule_code}: {line}", yellow=True)
