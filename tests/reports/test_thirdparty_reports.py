"""`make reports` machinery: the adapter table, run outcomes, the comparison page."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from tests.reports.factory import document, mixed_document, verdict
from toolwire.harness.reports import comparison, thirdparty
from toolwire.harness.reports.comparison import (
    AdapterRow,
    directions,
    not_run,
    render_index_html,
    render_index_markdown,
    summarise,
    worst_families,
)
from toolwire.harness.reports.thirdparty import Entry, TableError, parse_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_published_table_parses_and_names_registered_adapters() -> None:
    entries = thirdparty.load_table()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    registered = project["entry-points"]["toolwire.adapters"]
    extras = project["optional-dependencies"]
    names = [entry.name for entry in entries]
    assert "litellm-anthropic-messages" in names and "aisuite-anthropic" in names
    assert len(names) == len(set(names))
    for entry in entries:
        assert entry.name in registered, f"{entry.name} has no entry point"
        assert entry.extra in extras, f"{entry.name}: no extra {entry.extra!r} in pyproject.toml"


def test_table_lines_short_and_inline_forms() -> None:
    text = '[adapters]\none = "alpha"\ntwo = { extra = "beta", pip = ["--no-deps", "pkg==1.0"] }\n'
    assert parse_table(text) == (
        Entry("one", "alpha"),
        Entry("two", "beta", ("--no-deps", "pkg==1.0")),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("adapters = [", "not TOML"),
        ("[other]\nx = 1\n", "no [adapters] table"),
        ("[adapters]\n", "no [adapters] table"),
        ("[adapters]\none = 3\n", "one: expected an extra name"),
        ('[adapters]\none = ""\n', "one: expected an extra name"),
        ('[adapters]\none = { extra = "a", pip = "x" }\n', "one: pip must be a list of strings"),
        ('[adapters]\none = { extra = "a", pipp = [] }\n', "one: unknown keys pipp"),
    ],
)
def test_a_malformed_table_is_a_one_line_error(text: str, expected: str) -> None:
    with pytest.raises(TableError) as caught:
        parse_table(text, "t.toml")
    assert expected in str(caught.value)
    assert str(caught.value).startswith("t.toml")
    assert "\n" not in str(caught.value)


def _write(path: Path, doc: dict[str, object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_run_outcomes_results_or_problems(tmp_path: Path) -> None:
    passing = _write(tmp_path / "a" / "results.json", document([verdict("c/1", "x.y")]))
    assert comparison.run_problem(0, passing) == ""
    assert comparison.run_problem(1, passing) == ""
    errors = document([verdict("c/1", "convert", "error", "boom", level=None)])
    assert comparison.run_problem(3, _write(tmp_path / "b" / "results.json", errors)) == ""
    broken = document([verdict("c/1", "convert", "error", level=None)], broken="crashed")
    problem = comparison.run_problem(3, _write(tmp_path / "c" / "results.json", broken))
    assert problem == "adapter broken: crashed"
    missing = tmp_path / "d" / "results.json"
    assert "usage error (exit 2)" in comparison.run_problem(2, missing)
    assert "exit 3 without results" in comparison.run_problem(3, missing)
    assert "exit 0 without results" in comparison.run_problem(0, missing)


def test_summary_of_a_results_document() -> None:
    row = summarise("demo-folder", mixed_document())
    assert (row.folder, row.name, row.version, row.status) == ("demo-folder", "demo", "1.0", "FAIL")
    assert row.totals == {"pass": 1, "fail": 2, "warn": 1, "error": 1, "unsupported": 1}
    assert row.directions == ("request openai-chat->anthropic-messages",)
    assert (row.toolwire, row.corpus_version, row.cases) == ("0.1.0", "c0ffee000001", 3)
    clean = summarise("ok", document([verdict("c/1", "x.y")]))
    assert clean.status == "PASS" and clean.worst_families == ()
    broken = summarise("b", document([verdict("c/1", "convert", "error")], broken="dead"))
    assert (broken.status, broken.problem) == ("BROKEN", "dead")


def test_worst_families_count_fail_and_error_worst_first() -> None:
    by_family = {
        "pairing:fail": 2,
        "pairing:pass": 40,
        "schema:error": 5,
        "fidelity:fail": 3,
        "fidelity:error": 2,
        "stream:fail": 1,
        "xml:warn": 9,
    }
    assert worst_families(by_family) == (("fidelity", 5), ("schema", 5), ("pairing", 2))


def test_directions_ignore_round_trips() -> None:
    records = [
        {
            "directions": [
                "stream a->b, interaction 1 stream",
                "request a->b, interaction 2 request",
            ]
        },
        {"directions": ["request a->b, interaction 1 request, and back"]},
        {"directions": []},
    ]
    assert directions(records) == ("request a->b", "stream a->b")


def _rows() -> list[AdapterRow]:
    failing = summarise("litellm-x", mixed_document())
    reference = replace(summarise("reference", document([verdict("c/1", "x.y")])), name="reference")
    missing = not_run("aisuite-y", "toolwire[aisuite] could not be installed <pip>")
    return [failing, missing, reference]


def test_comparison_page_renders_rows_links_and_problems() -> None:
    page = render_index_html(_rows(), generated="2026-01-01 00:00 UTC")
    assert page.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in page and "<script" not in page
    names = re.findall(r'<th scope="row">([^<]+)</th>', page)
    assert names == ["reference", "aisuite-y", "demo"]  # reference first, then by folder
    assert '<a href="litellm-x/report.html">report</a>' in page
    assert 'href="aisuite-y/report.html"' not in page  # nothing to link to
    assert "toolwire[aisuite] could not be installed &lt;pip&gt;" in page
    row = page[page.index('<th scope="row">demo</th>') :].split("</tr>")[0]
    assert re.findall(r'<td class="n">(\d+)</td>', row) == ["1", "2", "1", "1", "1"]
    assert "o-fail" in row and "FAIL" in row
    assert "request openai-chat-&gt;anthropic-messages" in row
    assert "generated 2026-01-01 00:00 UTC" in page


def test_comparison_markdown_table() -> None:
    text = render_index_markdown(_rows())
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| adapter |"))
    assert lines[header] == (
        "| adapter | version | status | pass | fail | warn | error | unsupported "
        "| worst rule families |"
    )
    body = lines[header + 2 : header + 5]
    assert body[0].startswith("| [reference](reference/report.html) | 1.0 | PASS | 1 | 0 |")
    assert body[1].startswith("| aisuite-y |  | NOT RUN | toolwire[aisuite] could not be")
    assert "&lt;pip>" in body[1]
    assert body[2].startswith("| [demo](litellm-x/report.html) | 1.0 | FAIL | 1 | 2 | 1 | 1 | 1 |")
    assert body[2].endswith("| fidelity (1), pairing (1) |")
