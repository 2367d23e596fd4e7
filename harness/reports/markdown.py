"""Markdown for a CI job summary: counts, then the failures grouped by rule.

GitHub drops a step summary over 1 MiB ("$GITHUB_STEP_SUMMARY upload aborted,
supports content up to a size of 1024k"; see
https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-markdown-summary),
so the summary stops well before that (``DEFAULT_MAX_BYTES``) and ends with
an "N more" line; the results JSON and the HTML report hold everything.
Each failure's explanation sits in a ``<details>`` block: one click away.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from toolwire.harness.reports.summary import (
    FAILING,
    OUTCOMES,
    RULE_COLUMNS,
    Record,
    adapter_label,
    document_rule_totals,
    exercised_line,
    group_by_rule,
    problems,
    status,
)
from toolwire.harness.rule_links import rule_url

DEFAULT_MAX_BYTES = 400_000
MAX_ITEM_CHARS = 4_000  # one explanation never eats the budget
MAX_RULE_ROWS = 60
_TAIL_RESERVE = 600  # room kept for the "N more" line
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~<>#])")


def render_markdown(document: Record, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The job summary of a results document, at most ``max_bytes`` UTF-8 bytes."""
    # The per-rule counts follow the failures: their room is kept from the start.
    exercised = _exercised_table(document)
    out = _Budget(max_bytes - _TAIL_RESERVE - len(exercised.encode("utf-8")))
    out.force(_header(document))
    failures = problems(document, FAILING)
    warnings = problems(document, ("warn",))
    if failures or warnings:
        out.force(_rule_table(failures + warnings))
    shown = _sections(out, "Failures by rule", failures)
    shown += _sections(out, "Warnings (SHOULD rules) by rule", warnings) if out.open else 0
    out.force(exercised)
    hidden = len(failures) + len(warnings) - shown
    if hidden:
        out.force(
            f"\n**… and {hidden} more not shown** (this summary stops at "
            f"{max_bytes // 1000} kB): the results JSON and "
            "`toolwire report RESULTS --format html` hold every failure.\n"
        )
    return out.text()


def inline(text: str) -> str:
    """Plain text safe in a Markdown line: one line, markup characters escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def code(text: str) -> str:
    """An inline code span that survives backticks in ``text``."""
    text = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if fence != "`" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def rule_link(rule: str) -> str:
    """The rule's code as a link to its page (absolute: a summary travels)."""
    url = rule_url(rule)
    return f"[{code(rule)}]({url})" if url else code(rule)


def fenced(text: str) -> str:
    """A fenced code block longer than any backtick run inside ``text``."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


class _Budget:
    """Appends pieces while they fit in ``limit`` bytes; ``force`` always appends."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.pieces: list[str] = []
        self.open = True

    def add(self, piece: str) -> bool:
        size = len(piece.encode("utf-8"))
        if not self.open or self.used + size > self.limit:
            self.open = False
            return False
        self.force(piece, size)
        return True

    def force(self, piece: str, size: int | None = None) -> None:
        self.pieces.append(piece)
        self.used += len(piece.encode("utf-8")) if size is None else size

    def text(self) -> str:
        return "".join(self.pieces)


def _header(document: Record) -> str:
    corpus = document.get("corpus", {})
    totals: Mapping[str, int] = document["totals"]
    lines = [
        f"## toolwire: {status(document)} · {inline(adapter_label(document))}",
        "",
        f"Adapter {code(document['adapter']['spec'])} · corpus {corpus.get('cases', '?')} cases "
        f"(version {code(str(corpus.get('version') or 'unknown'))}) · rules "
        f"{code(str(document.get('rules_version', '?')))} · toolwire "
        f"{inline(str(document.get('toolwire', '?')))} · Python "
        f"{inline(str(document.get('python', '?')))} · {inline(str(document.get('started', '')))}",
        "",
    ]
    if document.get("broken"):
        lines += [f"> **BROKEN:** {inline(str(document['broken']))}", ""]
    lines += [
        "| " + " | ".join(OUTCOMES) + " |",
        "|" + "---:|" * len(OUTCOMES),
        "| " + " | ".join(str(totals.get(o, 0)) for o in OUTCOMES) + " |",
        "",
    ]
    return "\n".join(lines) + "\n"


def _rule_table(records: Sequence[Record]) -> str:
    groups = group_by_rule(records)
    lines = ["| rule | level | fail | error | stale | warn |", "|---|---|---:|---:|---:|---:|"]
    for rule, group in groups[:MAX_RULE_ROWS]:
        counts = Counter(r["outcome"] for r in group)
        levels = "/".join(sorted({str(r.get("level") or "-") for r in group}))
        cells = " | ".join(str(counts.get(o, 0)) for o in ("fail", "error", "stale", "warn"))
        lines.append(f"| {rule_link(rule)} | {levels} | {cells} |")
    if len(groups) > MAX_RULE_ROWS:
        lines.append(f"| … {len(groups) - MAX_RULE_ROWS} more rules | | | | | |")
    return "\n".join(lines) + "\n\n"


def _exercised_table(document: Record) -> str:
    """Per rule: how many cases it exercised and how they came out."""
    rows = document_rule_totals(document)
    if not rows:
        return ""
    lines = [
        "### Cases exercised per rule",
        "",
        f"{inline(exercised_line(rows))}. A rule gives a verdict only on a case that holds "
        "what it judges: each pass means exercised and right.",
        "",
        "| rule | " + " | ".join(RULE_COLUMNS) + " |",
        "|---|" + "---:|" * len(RULE_COLUMNS),
    ]
    lines += [
        f"| {rule_link(rule)} | " + " | ".join(str(row.get(c, 0)) for c in RULE_COLUMNS) + " |"
        for rule, row in rows.items()
    ]
    return "\n".join(lines) + "\n\n"


def _sections(out: _Budget, title: str, records: Sequence[Record]) -> int:
    """Write ``records`` grouped by rule while they fit; return how many were written."""
    if not records or not out.add(f"### {title}\n\n"):
        return 0
    written = 0
    for rule, group in group_by_rule(records):
        counts = Counter(r["outcome"] for r in group)
        summary = ", ".join(f"{n} {o}" for o, n in counts.most_common())
        if not out.add(f"#### {code(rule)} ({summary})\n\n{_rule_line(rule)}"):
            return written
        for record in group:
            if not out.add(_item(record)):
                return written
            written += 1
        out.add("\n")
    return written


def _rule_line(rule: str) -> str:
    url = rule_url(rule)
    return f"Rule page: [{code(rule)}]({url})\n\n" if url else ""


def _item(record: Record) -> str:
    explanation = str(record.get("explanation") or record["message"])
    if len(explanation) > MAX_ITEM_CHARS:
        cut = len(explanation) - MAX_ITEM_CHARS
        explanation = f"{explanation[:MAX_ITEM_CHARS]}\n… ({cut} more characters)"
    message = " ".join(str(record["message"]).split())
    if len(message) > 300:
        message = message[:297] + "..."
    summary = (
        f"<code>{html.escape(record['case'], quote=False)}</code> "
        f"{record['outcome'].upper()}: {html.escape(message, quote=False)}"
    )
    return f"<details><summary>{summary}</summary>\n\n{fenced(explanation)}\n\n</details>\n"
