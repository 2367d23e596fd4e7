"""`toolwire rule CODE`: a rule's page, offline (statement, why, evidence,
a failing and a passing example, how to fix), from the installed toolwire."""

from __future__ import annotations

import click


@click.command("rule")
@click.argument("code", required=False)
def rule(code: str | None) -> None:
    """Print the page of rule CODE (pairing.orphan_result, ...); without CODE,
    list every rule with its level and statement.

    The pages ship with toolwire: no network, no checkout needed. The same
    page is online at the link every failure explanation gives.
    """
    from toolwire.harness.rule_links import rule_url
    from toolwire.harness.rule_pages import page_text

    if code is None:
        _list_rules()
        return
    code = code.strip()
    click.echo(page_text(code), nl=False)
    click.echo(f"\nOnline: {rule_url(code)}")


def _list_rules() -> None:
    from toolwire.conformance.catalogue import RULES

    width = max(len(rule.code) for rule in RULES)
    for rule in RULES:
        levels = sorted({rule.level, *(v for v in rule.profile_levels.values() if v)})
        click.echo(f"{rule.code:<{width}}  {'/'.join(levels):<11}  {rule.statement}")
    click.echo(f"\n{len(RULES)} rules: `toolwire rule CODE` prints one's page")
