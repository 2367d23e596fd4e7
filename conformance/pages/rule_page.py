"""One rule's page (docs/rules/<family>/<rule>.md), written from the rule's
definition (statement, levels, sources, MUST evidence, fix, convention) and
the examples picked from the corpus (``conformance/<family>/examples.json``).

Pure: the same inputs give the same page. The examples files are written by
``python -m tests.docs.rule_examples`` (it runs the reference adapter and the
self-test's broken adapters); this module only reads them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolwire.conformance.catalogue import FAMILIES, defined_in
from toolwire.conformance.rule import Rule

CONFORMANCE = Path(__file__).resolve().parents[1]
# The examples of a family's rules, beside its definitions.
EXAMPLES_NAME = "examples.json"
# The command that writes the rule pages again (named on every page).
REGENERATE = "python -m toolwire.conformance.pages docs/rules"
# From docs/rules/<family>/<rule>.md to the repository's top and to docs/.
_TOP = "../../../"
_DOCS = "../../"
_KIND_SAYS = {
    "requirement": "the documentation requires it",
    "rejection": "a real API or client refused it",
    "meaning": "both dialects document what the field carries",
}


def examples_file(family: str, root: Path = CONFORMANCE) -> Path:
    return root / family / EXAMPLES_NAME


def load_examples(root: Path = CONFORMANCE) -> dict[str, Any]:
    """Every rule's examples, by code, from the family files under ``root``."""
    loaded: dict[str, Any] = {}
    for family in FAMILIES:
        loaded.update(json.loads(examples_file(family, root).read_text(encoding="utf-8")))
    return loaded


def github_anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading (lower case, punctuation dropped)."""
    kept = "".join(ch for ch in heading.lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def render_rule_page(rule: Rule, examples: Mapping[str, Any]) -> str:
    example = examples.get(rule.code) or {}
    lines = [
        f"# {rule.code}",
        "",
        f"> {rule.statement}",
        "",
        *_facts(rule),
        "",
        f"Generated from its definition in `{defined_in(rule.code)}` by `{REGENERATE}`.",
        "",
        *_why(rule),
        *_convention(rule),
        *_failing(example.get("failing")),
        *_passing(example.get("passing")),
        "## How to fix",
        "",
        rule.fix or f"(not written yet: add fix= to the definition in {defined_in(rule.code)})",
        "",
    ]
    return "\n".join(lines)


def _facts(rule: Rule) -> list[str]:
    family_link = f"[{rule.family}](../{rule.family}.md#{rule.anchor})"
    lines = [f"- Family: {family_link}", f"- Level: **{rule.level}**"]
    for profile, level in sorted(rule.profile_levels.items()):
        lines.append(f"  - under profile `{profile}`: {level or 'not checked'}")
    lines.append(f"- Scope: {', '.join(sorted(rule.scopes))}")
    if rule.dialects:
        lines.append(f"- Applies to: {', '.join(sorted(rule.dialects))}")
    return lines


def _why(rule: Rule) -> list[str]:
    lines = ["## Why", "", "Sources:", ""]
    lines += [f"- <{url}>" for url in rule.docs]
    lines.append("")
    if rule.can_be_must:
        lines += [
            f"Why MUST (a failure fails the run; evidence kinds: [levels.md]({_DOCS}levels.md)):",
            "",
        ]
        lines += [
            f"- {e.kind} ({_KIND_SAYS[e.kind]}): {e.says}. Source: <{e.url}>" for e in rule.evidence
        ]
    else:
        lines.append(
            "A SHOULD: something worth fixing that no provider requires, so a run warns "
            f"and does not fail ([levels.md]({_DOCS}levels.md))."
        )
    lines.append("")
    return lines


def _convention(rule: Rule) -> list[str]:
    if rule.convention is None:
        return []
    section, why = rule.convention
    link = f"[{section}]({_DOCS}conventions.md#{github_anchor(section)})"
    return ["## Convention", "", f"This rule accepts the convention {link}: {why}", ""]


def _case_link(found: Mapping[str, Any]) -> str:
    return f"[`{found['case']}`]({_TOP}{found['file']})"


def _block(text: str, language: str = "") -> list[str]:
    language = language or ("text" if text.startswith(("data:", "event:")) else "json")
    fence = "`" * max(3, max((len(r) for r in text.split("\n") if set(r) == {"`"}), default=0) + 1)
    return [f"{fence}{language}", text, fence]


def _failing(found: Mapping[str, Any] | None) -> list[str]:
    lines = ["## Failing example", ""]
    if not found:
        return [*lines, "No corpus case or self-test verdict shows this rule failing yet.", ""]
    at = f"`{found['path']}`" if found["path"] else "the whole payload"
    if found["from"] == "corpus":
        description = str(found["description"]).rstrip(".")
        lines += [
            f"The negative corpus case {_case_link(found)}: {description}.",
            "",
            f"`toolwire lint` on it, {found['where']}, at {at}:",
        ]
    else:
        lines += [
            f"The self-test's broken adapter `{found['adapter']}` (the reference adapter, "
            f"except that it {found['defect']}) on the case {_case_link(found)}, "
            f"{found['where']}, at {at}:",
        ]
    lines += ["", f"> {found['level']} {' '.join(str(found['message']).split())}", ""]
    if found.get("diff"):
        lines += [
            "Diff (source, then what the converter gave):",
            "",
            *_block(found["diff"], "text"),
        ]
        lines.append("")
    if found.get("excerpt"):
        what = "The payload" if found["from"] == "corpus" else "Its output"
        lines += [f"{what} at `{found['excerpt_path']}`:", "", *_block(found["excerpt"]), ""]
    return lines


def _passing(found: Mapping[str, Any] | None) -> list[str]:
    lines = ["## Passing example", ""]
    if not found:
        return [*lines, "No corpus case shows this rule passing yet.", ""]
    if found.get("output") is not None or not found["direction"].endswith("as recorded"):
        lines.append(
            f"The case {_case_link(found)} ({found['description']}); the reference adapter "
            f"converts it ({found['direction']}) and the rule holds."
        )
    else:
        lines.append(
            f"The case {_case_link(found)} ({found['description']}): its own payloads hold the "
            f"rule, as `toolwire lint` or a faithful pass-through proxy judges them "
            f"({found['direction']})."
        )
    lines += ["", f"Source at `{found['source_path']}`:", "", *_block(found["source"]), ""]
    if found.get("output") is not None:
        lines += [
            f"Reference output at `{found['output_path']}`:",
            "",
            *_block(found["output"]),
            "",
        ]
    return lines
