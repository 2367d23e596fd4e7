"""Terminal output shared by the commands: summaries people read in one screen."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from harness.engine.explain import explain
from harness.engine.session import RunResult

MAX_EXPLAINED = 20


def print_run_summary(
    result: RunResult, verbose: bool = False, report_dir: Path | None = None
) -> None:
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
    click.echo("  ".join(f"{count} {outcome}" for outcome, count in totals.items() if count))
    failing_rules = Counter(v.rule_code for v in result.verdicts if v.outcome == "fail")
    if failing_rules:
        worst = ", ".join(f"{code} ({n})" for code, n in failing_rules.most_common(5))
        click.echo(f"failing rules: {worst}")
    if report_dir is not None:
        click.echo(f"results: {report_dir / 'results.json'}")
    verdict_line = {0: "PASS", 1: "FAIL", 3: "ERROR"}[result.exit_code]
    click.echo(f"{verdict_line}: exit {result.exit_code}")
