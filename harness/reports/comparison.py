"""The comparison page across adapters: ``reports/index.html`` and ``reports/README.md``.

Pure functions: ``summarise`` reads what the page needs from one results
document; ``render_index_html`` and ``render_index_markdown`` render the rows,
each row a results file or a run that produced none (its problem said in one
line). ``make reports`` writes both (harness/reports/thirdparty.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from toolwire.harness.reports.html_report import CSP
from toolwire.harness.reports.html_style import STYLE

COUNTED = ("pass", "fail", "warn", "error", "unsupported")
# An adapter spec naming an HTTP proxy under test (harness/adapters/http_adapter.py).
PROXY_SPEC_PREFIX = "http://"
PROXY_LABEL = "HTTP proxy"
WORST_FAMILIES = 3
# A verdict's ``directions`` entry reads "request anthropic-messages->openai-chat, interaction 1 …".
_DIRECTION_END = ", "
_EXTRA_STYLE = """
table.compare { border-collapse: collapse; width: 100%; margin: 1rem 0; }
table.compare th, table.compare td { border: 1px solid var(--line); padding: .35rem .5rem;
  text-align: left; vertical-align: top; }
table.compare td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.compare th { background: var(--panel); }
.cmp-scroll { overflow-x: auto; }
details.dirs summary { cursor: pointer; white-space: nowrap; }
ul.dirs { margin: 0; padding-left: 1rem; font-size: .85rem; }
"""


@dataclass(frozen=True)
class AdapterRow:
    """One adapter on the comparison page."""

    folder: str  # reports/<folder>/
    name: str
    version: str
    status: str  # PASS, FAIL, BROKEN, or NOT RUN
    totals: Mapping[str, int] = field(default_factory=dict)
    worst_families: tuple[tuple[str, int], ...] = ()
    directions: tuple[str, ...] = ()
    toolwire: str = ""
    corpus_version: str = ""
    cases: int = 0
    problem: str = ""  # why there are no results (or why the run broke)
    proxy: bool = False  # an HTTP proxy driven over the wire (`make integration`)


def summarise(folder: str, document: Mapping[str, Any]) -> AdapterRow:
    """The comparison row of one results document."""
    adapter = document["adapter"]
    corpus = document.get("corpus") or {}
    return AdapterRow(
        folder=folder,
        name=str(adapter["name"]),
        version=str(adapter["version"]),
        status=_status(document),
        totals={outcome: int(document["totals"].get(outcome, 0)) for outcome in COUNTED},
        worst_families=worst_families(document.get("totals_by_family", {})),
        directions=directions(document.get("verdicts", ())),
        toolwire=str(document.get("toolwire", "")),
        corpus_version=str(corpus.get("version") or ""),
        cases=int(corpus.get("cases") or 0),
        problem=str(document.get("broken") or ""),
        proxy=str(adapter.get("spec", "")).startswith(PROXY_SPEC_PREFIX),
    )


def _status(document: Mapping[str, Any]) -> str:
    """PASS, FAIL, or BROKEN only when the adapter failed on every case: a run
    where some conversions raised is a FAIL here, its errors counted."""
    if document.get("broken"):
        return "BROKEN"
    return "PASS" if document.get("exit_code") == 0 else "FAIL"


def not_run(folder: str, problem: str) -> AdapterRow:
    """A row for an adapter whose run produced no results."""
    return AdapterRow(folder=folder, name=folder, version="", status="NOT RUN", problem=problem)


def worst_families(by_family: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """The rule families with the most failing verdicts (fail + error), worst first."""
    failing: dict[str, int] = {}
    for key, count in by_family.items():
        family, _, outcome = key.rpartition(":")
        if outcome in ("fail", "error") and count:
            failing[family] = failing.get(family, 0) + int(count)
    ranked = sorted(failing.items(), key=lambda item: (-item[1], item[0]))
    return tuple(ranked[:WORST_FAMILIES])


def directions(verdicts: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The conversions the run exercised, e.g. ``request anthropic-messages->openai-chat``."""
    seen: set[str] = set()
    for verdict in verdicts:
        for where in verdict.get("directions") or ():
            direction = str(where).split(_DIRECTION_END, 1)[0]
            if "->" in direction and ", and back" not in direction:
                seen.add(direction)
    return tuple(sorted(seen))


def _order(rows: Sequence[AdapterRow]) -> list[AdapterRow]:
    # The reference first (the bar every converter is measured against), then the
    # libraries, then the HTTP proxies, each by name.
    return sorted(rows, key=lambda row: (row.folder != "reference", row.proxy, row.folder))


def _status_class(row: AdapterRow) -> str:
    return {"PASS": "o-pass", "FAIL": "o-fail", "BROKEN": "o-error"}.get(row.status, "o-error")


def render_index_html(rows: Sequence[AdapterRow], generated: str = "") -> str:
    """The comparison page: one self-contained HTML file, no script."""
    ordered = _order(rows)
    head = "".join(f'<th scope="col">{escape(name)}</th>' for name in COUNTED)
    body_rows = "\n".join(_html_row(row) for row in ordered)
    versions = sorted({row.toolwire for row in ordered if row.toolwire})
    corpora = sorted({row.corpus_version for row in ordered if row.corpus_version})
    meta = (
        f'<p class="sub">toolwire {escape(", ".join(versions) or "?")} · corpus '
        f"{escape(', '.join(c[:12] for c in corpora) or '?')}"
        + (f" · generated {escape(generated)}" if generated else "")
        + "</p>"
    )
    table = (
        '<div class="cmp-scroll"><table class="compare">\n<thead><tr><th scope="col">adapter</th>'
        f'<th scope="col">version</th><th scope="col">status</th>{head}'
        '<th scope="col">worst rule families</th><th scope="col">directions</th>'
        '<th scope="col">report</th></tr></thead>\n'
        f"<tbody>\n{body_rows}\n</tbody></table></div>"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        "<title>toolwire: converters compared</title>\n"
        f"<style>{STYLE}{_EXTRA_STYLE}</style>\n</head>\n<body>\n<main>\n"
        "<h1>toolwire: converters compared</h1>\n"
        f"{meta}\n{table}\n"
        "<footer>Each row is rendered from <code>reports/&lt;adapter&gt;/results.json</code> "
        "by <code>make reports</code>, and the rows marked <em>HTTP proxy</em> by "
        "<code>make integration</code> (real proxies judged on both legs through a replay "
        "upstream on 127.0.0.1); counts are verdicts (case × rule). "
        "<em>unsupported</em> counts directions an adapter does not convert.</footer>\n"
        "</main>\n</body>\n</html>\n"
    )


def _html_row(row: AdapterRow) -> str:
    counts = "".join(f'<td class="n">{row.totals.get(o, 0)}</td>' for o in COUNTED)
    if row.status == "NOT RUN":
        counts = f'<td colspan="{len(COUNTED)}">{escape(row.problem)}</td>'
    families = ", ".join(f"{escape(name)} ({count})" for name, count in row.worst_families)
    items = "".join(f"<li>{escape(d)}</li>" for d in row.directions)
    count = len(row.directions)
    dirs = (
        f'<details class="dirs"><summary>{count} direction{"s" if count != 1 else ""}'
        f'</summary><ul class="dirs">{items}</ul></details>'
        if count
        else "–"
    )
    link = (
        f'<a href="{escape(row.folder)}/report.html">report</a> · '
        f'<a href="{escape(row.folder)}/results.json">results</a>'
        if row.status != "NOT RUN"
        else ""
    )
    problem = (
        f'<br><span class="sub">{escape(row.problem)}</span>'
        if row.problem and row.status != "NOT RUN"
        else ""
    )
    label = f'<br><span class="sub">{PROXY_LABEL}</span>' if row.proxy else ""
    return (
        f'<tr><th scope="row">{escape(row.name)}{label}</th><td>{escape(row.version)}</td>'
        f'<td><span class="badge {_status_class(row)}">{escape(row.status)}</span>{problem}</td>'
        f"{counts}<td>{families or '–'}</td>"
        f"<td>{dirs}</td><td>{link}</td></tr>"
    )


def render_index_markdown(rows: Sequence[AdapterRow], generated: str = "") -> str:
    """The same comparison as Markdown (``reports/README.md``)."""
    lines = [
        "# toolwire: converters compared",
        "",
        "Generated by `make reports`"
        + (f" ({generated})" if generated else "")
        + ": each adapter's `results.json`, `report.html` and `badge.json` are in its folder. "
        "Counts are verdicts (case × rule); *unsupported* counts directions the adapter "
        "does not convert. Rows marked *HTTP proxy* are real proxies run by "
        "`make integration`, judged on both legs through a replay upstream on 127.0.0.1 "
        "([docs/proxies.md](../docs/proxies.md)). "
        "Open [index.html](index.html) for the same table as a page.",
        "",
        "| adapter | version | status | " + " | ".join(COUNTED) + " | worst rule families |",
        "|---|---|---|" + "---:|" * len(COUNTED) + "---|",
    ]
    for row in _order(rows):
        name = _md(row.name)
        if row.status != "NOT RUN":
            name = f"[{name}]({row.folder}/report.html)"
        if row.proxy:
            name += f" ({PROXY_LABEL})"
        counts = " | ".join(str(row.totals.get(o, 0)) for o in COUNTED)
        if row.status == "NOT RUN":
            counts = " | ".join([_md(row.problem)] + [""] * (len(COUNTED) - 1))
        families = ", ".join(f"{_md(n)} ({c})" for n, c in row.worst_families) or "–"
        lines.append(f"| {name} | {_md(row.version)} | {row.status} | {counts} | {families} |")
    lines.append("")
    lines.append("Directions exercised:")
    lines.append("")
    for row in _order(rows):
        if row.directions:
            lines.append(f"- **{_md(row.name)}**: " + "; ".join(row.directions))
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


# Exit codes of a run that wrote usable results (`toolwire run`: 0 clean, 1 findings).
RESULT_EXIT_CODES = (0, 1)


def run_problem(code: int, results: Path) -> str:
    """Why a run gave no usable results, or "" when it did."""
    if code in RESULT_EXIT_CODES and results.exists():
        return ""
    if code == 3 and results.exists():
        broken = json.loads(results.read_text(encoding="utf-8")).get("broken")
        return f"adapter broken: {broken}" if broken else ""
    if code == 2:
        return "usage error (exit 2): see reports/_local/ for the log"
    return f"exit {code} without results: see reports/_local/ for the log"
