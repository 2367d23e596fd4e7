"""A self-contained HTML report: header, totals, the rule-family × feature
matrix, every failure with its explanation and diff one click away, and the
pages of the rules it cites (rule_pages_html.py).

One file, no script, no external resource (a Content-Security-Policy says
so to the browser): it opens from disk, from a CI artifact or as a mail
attachment. ``<details>`` elements make it readable without JavaScript.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape

from toolwire.harness.reports.html_style import STYLE
from toolwire.harness.reports.rule_pages_html import page_anchor, rule_pages_section
from toolwire.harness.reports.summary import (
    OUTCOMES,
    RULE_COLUMNS,
    Matrix,
    Record,
    adapter_label,
    document_rule_totals,
    exercised_line,
    family_of,
    outcome_line,
    problems,
    status,
    worst,
)
from toolwire.harness.rule_links import rule_url

MAX_ROWS = 5_000  # failing rows shown; the results JSON holds the rest
FINDINGS_IN_EXPLANATION = 5  # explain() shows this many findings itself
SHOWN = ("fail", "error", "stale", "warn", "xfail")
SYMBOLS = {
    "pass": "✔",
    "fail": "✘",
    "error": "⚠",
    "stale": "↺",
    "warn": "!",
    "xfail": "~",
    "unsupported": "–",
}
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def render_html(document: Record) -> str:
    title = f"toolwire: {status(document)} · {adapter_label(document)}"
    rows = problems(document, SHOWN)
    body = "\n".join(
        [
            _header(document),
            _totals(document["totals"]),
            _matrix(Matrix(document)),
            _exercised(document),
            _failures(rows),
            rule_pages_section(record["rule"] for record in rows[:MAX_ROWS]),
            "<footer>Rendered from the results JSON by <code>toolwire report --format html"
            "</code>; the JSON is the source of truth.</footer>",
        ]
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def anchor(kind: str, name: str) -> str:
    """An element id for a family or rule, safe in a URL fragment."""
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9_.-]", "-", name)


def rule_link(rule: str) -> str:
    """The rule's code, linked to its page by absolute URL (the report travels)."""
    url = rule_url(rule)
    name = f"<code>{escape(rule)}</code>"
    return f'<a class="rule" href="{escape(url)}">{name}</a>' if url else name


def _header(document: Record) -> str:
    verdict = status(document)
    style = {"PASS": "o-pass", "FAIL": "o-fail", "BROKEN": "o-error"}[verdict]
    adapter = document["adapter"]
    corpus = document.get("corpus", {})
    profiles = document.get("profiles") or {}
    facts = [
        ("adapter", f"{adapter['name']} {adapter['version']}"),
        ("adapter spec", adapter["spec"]),
        ("corpus", f"{corpus.get('cases', '?')} cases · version {corpus.get('version') or '?'}"),
        ("corpus folder", str(corpus.get("root", ""))),
        ("rules version", str(document.get("rules_version", ""))),
        ("toolwire", str(document.get("toolwire", ""))),
        ("Python", str(document.get("python", ""))),
        ("platform", str(document.get("platform", ""))),
        ("started", str(document.get("started", ""))),
        ("finished", str(document.get("finished", ""))),
        ("profiles", ", ".join(f"{d}={p}" for d, p in profiles.items()) or "defaults"),
        ("exit code", str(document.get("exit_code", ""))),
    ]
    items = "".join(f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>" for k, v in facts)
    broken = (
        f'<p class="banner" role="alert"><strong>BROKEN:</strong> '
        f"{escape(str(document['broken']))}</p>"
        if document.get("broken")
        else ""
    )
    return (
        f'<header>\n<h1>toolwire <span class="badge {style}">{verdict}</span> '
        f"<span>{escape(adapter_label(document))}</span></h1>\n"
        f'<p class="sub">{escape(outcome_line(document["totals"]))}</p>\n'
        f'<dl class="meta">{items}</dl>\n{broken}\n</header>'
    )


def _totals(totals: Mapping[str, int]) -> str:
    items = "".join(
        f'<li class="o-{o}"><b>{totals.get(o, 0)}</b>{SYMBOLS[o]} {o}</li>' for o in OUTCOMES
    )
    return f'<section id="totals">\n<h2>Totals</h2>\n<ul class="totals">{items}</ul>\n</section>'


def _matrix(matrix: Matrix) -> str:
    if not matrix.families:
        return '<section id="matrix">\n<h2>Matrix</h2>\n<p>No verdicts.</p>\n</section>'
    head = "".join(f'<th scope="col">{escape(f)}</th>' for f in ["all", *matrix.features])
    rows = []
    for family in matrix.families:
        cells = [_cell(family, matrix.family_totals(family))]
        cells += [_cell(family, matrix.cell(family, f)) for f in matrix.features]
        rows.append(f'<tr><th scope="row">{escape(family)}</th>{"".join(cells)}</tr>')
    legend = " · ".join(f"{SYMBOLS[o]} {o}" for o in OUTCOMES)
    return (
        '<section id="matrix">\n<h2>Rule families × features</h2>\n'
        '<p class="legend">Each cell: the worst outcome among the verdicts of that rule family '
        "on cases with that feature, and how many of them are not a pass. "
        f"Legend: {escape(legend)}. Select a cell to see its failures.</p>\n"
        '<div class="scroll"><table class="matrix">\n'
        f'<thead><tr><th scope="col">family</th>{head}</tr></thead>\n'
        f"<tbody>\n{chr(10).join(rows)}\n</tbody>\n</table></div>\n</section>"
    )


def _exercised(document: Record) -> str:
    rows = document_rule_totals(document)
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in RULE_COLUMNS)
    body = "\n".join(
        f'<tr><th scope="row">{rule_link(rule)}</th>'
        + "".join(f"<td>{row.get(c, 0)}</td>" for c in RULE_COLUMNS)
        + "</tr>"
        for rule, row in rows.items()
    )
    return (
        '<section id="exercised">\n<h2>Cases exercised per rule</h2>\n'
        f"<p>{escape(exercised_line(rows))}. A rule gives a verdict only on a case that "
        "holds what it judges, so each pass means exercised and right.</p>\n"
        '<details><summary>Per rule</summary>\n<div class="scroll"><table class="rules">\n'
        f'<thead><tr><th scope="col">rule</th>{head}</tr></thead>\n'
        f"<tbody>\n{body}\n</tbody>\n</table></div>\n</details>\n</section>"
    )


def _cell(family: str, counts: Counter[str]) -> str:
    outcome = worst(counts)
    if outcome is None:
        return '<td class="empty" title="no verdicts">·</td>'
    total = sum(counts.values())
    title = f"{total} verdicts: " + ", ".join(f"{n} {o}" for o, n in counts.most_common())
    if outcome in ("pass", "unsupported"):
        text = f"{SYMBOLS[outcome]} {outcome}<span class=n>{total}</span>"
        return f'<td class="o-{outcome}" title="{escape(title)}">{text}</td>'
    not_passed = total - counts.get("pass", 0) - counts.get("unsupported", 0)
    text = f"{SYMBOLS[outcome]} {outcome}<span class=n>{not_passed}/{total}</span>"
    link = f'<a href="#{anchor("family", family)}">{text}</a>'
    return f'<td class="o-{outcome}" title="{escape(title)}">{link}</td>'


def _failures(rows: Sequence[Record]) -> str:
    if not rows:
        return '<section id="failures">\n<h2>Failures</h2>\n<p>Nothing failed.</p>\n</section>'
    shown = rows[:MAX_ROWS]
    by_family: dict[str, dict[str, list[Record]]] = {}
    for record in shown:
        rules_of_family = by_family.setdefault(family_of(record["rule"]), {})
        rules_of_family.setdefault(record["rule"], []).append(record)
    parts = [
        f'<section id="failures">\n<h2>Failures, warnings and known failures ({len(rows)})</h2>'
    ]
    for family in sorted(by_family):
        rules = by_family[family]
        counts = Counter(r["outcome"] for group in rules.values() for r in group)
        parts.append(
            f'<section class="family" id="{anchor("family", family)}">'
            f"<h3>{escape(family)} <small>{escape(outcome_line(counts))}</small></h3>"
        )
        for rule in sorted(rules, key=lambda r: (-len(rules[r]), r)):
            page = (
                f' <a class="page" href="#{page_anchor(rule)}">rule page</a>'
                if rule_url(rule)
                else ""
            )
            parts.append(
                f'<h4 id="{anchor("rule", rule)}">{rule_link(rule)} · {len(rules[rule])}{page}</h4>'
            )
            parts.extend(_row(record) for record in rules[rule])
        parts.append("</section>")
    if len(rows) > len(shown):
        parts.append(
            f'<p class="more">… and {len(rows) - len(shown)} more not shown here: '
            "see the results JSON.</p>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def _row(record: Record) -> str:
    outcome = record["outcome"]
    level = f" {record['level']}" if record.get("level") else ""
    summary = (
        f'<span class="badge o-{outcome}">{SYMBOLS[outcome]} {outcome.upper()}{level}</span>'
        f'<code class="case">{escape(record["case"])}</code>'
        f'<span class="msg">{escape(record["message"])}</span>'
    )
    body = [f'<pre class="explanation">{escape(record.get("explanation") or "")}</pre>']
    if record.get("baseline_reason"):
        body.append(f"<p>Baseline reason: {escape(record['baseline_reason'])}</p>")
    findings = record["findings"]
    if len(findings) > FINDINGS_IN_EXPLANATION:
        body.append(_findings_table(findings))
    return (
        f'<details class="row o-{outcome}"><summary>{summary}</summary>'
        f'<div class="body">{"".join(body)}</div></details>'
    )


def _findings_table(findings: Sequence[Record]) -> str:
    rows = "".join(
        f"<tr><td>{escape(f['where'])}</td><td><code>{escape(f['path'] or '$')}</code></td>"
        f"<td>{escape(f['message'])}"
        + (f"<pre>{escape(f['diff'])}</pre>" if f["diff"] else "")
        + "</td></tr>"
        for f in findings
    )
    return (
        f"<details><summary>All {len(findings)} findings</summary>"
        '<div class="scroll"><table class="findings"><thead><tr><th>where</th><th>path</th>'
        f"<th>why and diff</th></tr></thead><tbody>{rows}</tbody></table></div></details>"
    )
