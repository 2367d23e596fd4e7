"""Terminal output shared by the commands: summaries people read in one screen."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from toolwire.conformance.catalogue import RULE_CODES
from toolwire.harness.engine.explain import explain
from toolwire.harness.engine.session import RunResult
from toolwire.harness.gate import DEFAULT_FAIL_ON, warnings_note
from toolwire.harness.reports.summary import exercised_line, rule_totals

MAX_EXPLAINED = 20


def _exercised(result: RunResult, verbose: bool) -> str:
    """Cases each rule exercised: a compact table, three rules a line (one a line
    with -v, with the outcomes); the rules with nothing to judge are named."""
    rows = rule_totals(((v.rule_code, v.outcome) for v in result.verdicts), RULE_CODES)
    lines = [f"cases exercised per rule ({exercised_line(rows)}):"]
    if verbose:
        lines += [
            f"  {rule:<34} {row['exercised']:>5} exercised  {row['pass']:>5} pass"
            f"  {row['fail']:>3} fail  {row['warn']:>3} warn"
            for rule, row in rows.items()
        ]
        return "\n".join(lines)
    cells = [f"{rule} {row['exercised']}{_problems(row)}" for rule, row in rows.items()]
    cells = [cell for cell, row in zip(cells, rows.values(), strict=True) if row["exercised"]]
    width = max((len(c) for c in cells), default=0) + 2
    for start in range(0, len(cells), 3):
        lines.append("  " + "".join(c.ljust(width) for c in cells[start : start + 3]).rstrip())
    return "\n".join(lines)


def _problems(row: dict[str, int]) -> str:
    parts = [f"{row[o]} {o}" for o in ("fail", "warn") if row[o]]
    return f" ({', '.join(parts)})" if parts else ""


def print_run_summary(
    result: RunResult,
    verbose: bool = False,
    report_dir: Path | None = None,
    fail_on: str = DEFAULT_FAIL_ON,
    exit_code: int | None = None,
) -> None:
    """The run in one screen; ``exit_code`` is the run's under ``fail_on``
    (default the result's own)."""
    if exit_code is None:
        exit_code = result.exit_code
    adapter = result.adapter
    click.echo(
        f"toolwire run: adapter {adapter.name} {adapter.version} on {len(result.cases)} cases "
        f"({result.corpus_root})"
    )
    if result.broken:
        click.echo(f"BROKEN: {result.broken}", err=True)
        return
    problems = [v for v in result.verdicts if v.outcome in ("fail", "error", "stale", "warn")]
    shown = problems if verbose else problems[:MAX_EXPLAINED]
    for verdict in shown:
        click.echo("")
        click.echo(explain(verdict))
    if len(problems) > len(shown):
        click.echo(
            f"\n... {len(problems) - len(shown)} more: rerun with -v, or see the results JSON"
        )
    totals = result.totals
    click.echo("")
    click.echo(_exercised(result, verbose))
    click.echo("  ".join(f"{count} {outcome}" for outcome, count in totals.items() if count))
    failing_rules = Counter(v.rule_code for v in result.verdicts if v.outcome == "fail")
    if failing_rules:
        worst = ", ".join(f"{code} ({n})" for code, n in failing_rules.most_common(5))
        click.echo(f"failing rules: {worst}")
    if report_dir is not None:
        click.echo(f"results: {report_dir / 'results.json'}")
    note = warnings_note(totals["warn"], fail_on)
    if note:
        click.echo(note)
    verdict_line = {0: "PASS", 1: "FAIL", 3: "ERROR"}[exit_code]
    click.echo(f"{verdict_line}: exit {exit_code}")
