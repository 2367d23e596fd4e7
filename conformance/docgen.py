"""Write the rule pages from the catalogue, so the two never drift: an index
(docs/rules/README.md), one page per family (docs/rules/<family>.md) and one
page per rule (docs/rules/<family>/<rule>.md, conformance/rule_page.py).

Run ``python -m toolwire.conformance.docgen docs/rules`` after changing a rule; a test
fails when the committed pages differ from what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from toolwire.conformance.catalogue import FAMILIES, RULES, Rule, rules_in_family
from toolwire.conformance.levels import can_be_must, evidence_for
from toolwire.conformance.rule_page import load_examples, render_rule_page
from toolwire.conformance.rule_pages import page_path

# The command that writes the rule pages again (named on every page).
REGENERATE = "python -m toolwire.conformance.docgen docs/rules"

_FAMILY_INTRO = {
    "pairing": "Tool calls and their results find each other by id.",
    "ordering": "Results, text, thinking and system prompts sit where each dialect requires.",
    "fidelity": "What the model said, and the tools it was given, survive conversion.",
    "reasoning": "Reasoning that must be replayed comes back whole and unchanged.",
    "xml": "Qwen3-Coder XML tool calls in text become structured calls, safely. Where the "
    "real parsers (Qwen's own, vLLM, sglang, llama.cpp) split, any reading one of them "
    "gives is accepted: [xml-peers.md](xml-peers.md) says who does what.",
    "stream": "Streams follow their grammar and reassemble into the right message.",
    "replay": "Across a conversation, what the model returned comes back unchanged.",
    "schema": "Every payload produced has the shape its dialect's documentation requires.",
}


def render_family(family: str) -> str:
    lines = [
        f"# {family} rules",
        "",
        _FAMILY_INTRO[family],
        "",
        f"Generated from `conformance/catalogue.py` by `{REGENERATE}`.",
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
    if can_be_must(rule):
        # Why the rule may fail a run (docs/levels.md).
        lines.append("- Why MUST:")
        lines.extend(f"  - {e.kind}: {e.says} (<{e.url}>)" for e in evidence_for(rule.code))
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
        "Generated from `conformance/catalogue.py` by "
        "`python -m toolwire.conformance.docgen docs/rules`.",
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


if __name__ == "__main__":  # pragma: no cover
    for path in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules")):
        print(path)
