"""Write the rule pages from the rule definitions, so the two never drift: an
index (docs/rules/README.md), one page per family (docs/rules/<family>.md) and
one page per rule (docs/rules/<family>/<rule>.md, pages/rule_page.py).

Run ``python -m toolwire.conformance.pages docs/rules`` after changing a rule; a
test fails when the committed pages differ from what this writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolwire.conformance.catalogue import FAMILIES, RULES, family_intro, rules_in_family
from toolwire.conformance.pages.locations import page_path
from toolwire.conformance.pages.rule_page import REGENERATE, load_examples, render_rule_page
from toolwire.conformance.rule import Rule


def render_family(family: str) -> str:
    lines = [
        f"# {family} rules",
        "",
        family_intro(family),
        "",
        f"Generated from the rule definitions in `conformance/{family}/` by `{REGENERATE}`.",
        "",
    ]
    for rule in rules_in_family(family):
        lines.extend(_render_rule(rule))
    return "\n".join(lines).rstrip() + "\n"


def _render_rule(rule: Rule) -> list[str]:
    lines = [f"## {rule.code}", "", rule.statement, ""]
    lines.append(f"- Page: [{rule.code}]({_from_rules(page_path(rule.code))})")
    lines.append(f"- Level: **{rule.level}**")
    for profile, level in sorted(rule.profile_levels.items()):
        lines.append(f"  - under profile `{profile}`: {level or 'not checked'}")
    lines.append(f"- Scope: {', '.join(sorted(rule.scopes))}")
    if rule.dialects:
        lines.append(f"- Applies to: {', '.join(sorted(rule.dialects))}")
    lines.append("- Sources: " + ", ".join(f"<{url}>" for url in rule.docs))
    if rule.can_be_must:
        # Why the rule may fail a run (docs/levels.md).
        lines.append("- Why MUST:")
        lines.extend(f"  - {e.kind}: {e.says} (<{e.url}>)" for e in rule.evidence)
    lines.append("")
    return lines


def _from_rules(path: str) -> str:
    """A page path relative to docs/ (``rules/x/y.md``), from docs/rules/."""
    return path.removeprefix("rules/")


def render_index() -> str:
    lines = [
        "# Rules",
        "",
        "Every rule toolwire judges, with its page: the statement, why (the provider "
        "documentation it rests on), a failing and a passing example from the corpus, and "
        "how to fix a failure. Reports link each rule to its page.",
        "",
        f"Generated from the rule definitions in `conformance/<family>/` by `{REGENERATE}`.",
        "",
        "| rule | level | statement |",
        "|---|---|---|",
    ]
    for rule in RULES:
        levels = "/".join(sorted({rule.level, *filter(None, rule.profile_levels.values())}))
        statement = rule.statement.replace("|", "\\|")
        lines.append(
            f"| [`{rule.code}`]({_from_rules(page_path(rule.code))}) | {levels} | {statement} |"
        )
    families = ", ".join(f"[{family}]({family}.md)" for family in FAMILIES)
    lines += ["", f"By family: {families}.", ""]
    return "\n".join(lines)


def pages(examples: dict[str, Any] | None = None) -> dict[str, str]:
    """Every page, by its path relative to docs/rules/."""
    examples = load_examples() if examples is None else examples
    found = {"README.md": render_index()}
    found.update({f"{family}.md": render_family(family) for family in FAMILIES})
    for rule in RULES:
        found[_from_rules(page_path(rule.code))] = render_rule_page(rule, examples)
    return found


def write_all(folder: Path) -> list[Path]:
    written = []
    for name, text in pages().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
