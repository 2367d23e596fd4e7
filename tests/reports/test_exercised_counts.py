"""How many cases each rule exercised: in results.json, Markdown, HTML and the terminal."""

from __future__ import annotations

from collections import Counter
from typing import Any

from click.testing import CliRunner
from jsonschema import Draft202012Validator

from tests.reports.factory import document, verdict
from toolwire.conformance.catalogue import RULE_CODES
from toolwire.harness.cli.main import cli
from toolwire.harness.reports.html_report import render_html
from toolwire.harness.reports.load import results_schema
from toolwire.harness.reports.markdown import render_markdown
from toolwire.harness.reports.summary import document_rule_totals, exercised_line, rule_totals
from toolwire.harness.rule_links import rule_url


def test_results_count_every_catalogue_rule_from_its_verdicts(
    real_documents: dict[str, dict[str, Any]],
) -> None:
    for key in ("reference", "renames-ids"):
        doc = real_documents[key]
        rows = doc["totals_by_rule"]
        assert sorted(rows) == sorted(RULE_CODES)  # a rule that judged nothing shows 0
        counted = Counter((v["rule"], v["outcome"]) for v in doc["verdicts"])
        for rule, row in rows.items():
            mine = {o: n for (r, o), n in counted.items() if r == rule}
            assert row["exercised"] == sum(mine.values()), rule
            assert all(row[o] == n for o, n in mine.items()), rule
    renamed = real_documents["renames-ids"]["totals_by_rule"]["pairing.id_changed"]
    assert renamed["warn"] > 0  # SHOULD since the level policy (docs/levels.md)
    # The replay rule is judged on multi-request cassettes by `toolwire lint`, not in a run.
    assert real_documents["reference"]["totals_by_rule"]["replay.assistant_altered"] == {
        "exercised": 0,
        "pass": 0,
        "fail": 0,
        "warn": 0,
        "xfail": 0,
        "stale": 0,
    }


def test_a_document_written_before_the_counts_still_validates_and_renders() -> None:
    old = document(
        [
            verdict("a", "pairing.id_changed", "pass"),
            verdict("b", "pairing.id_changed", "fail", "renamed"),
            verdict("a", "convert", "error", "boom", level=None),
        ]
    )
    assert "totals_by_rule" not in old
    assert list(Draft202012Validator(results_schema()).iter_errors(old)) == []
    rows = document_rule_totals(old)
    assert rows == {
        "pairing.id_changed": {
            "exercised": 2,
            "pass": 1,
            "fail": 1,
            "warn": 0,
            "xfail": 0,
            "stale": 0,
        }
    }  # the pseudo-rule `convert` is about the adapter, not a rule
    link = f"[`pairing.id_changed`]({rule_url('pairing.id_changed')})"
    assert f"| {link} | 2 | 1 | 1 | 0 | 0 | 0 |" in render_markdown(old)
    assert '<section id="exercised">' in render_html(old)


def test_the_compact_line_names_the_rules_with_nothing_to_judge() -> None:
    rows = rule_totals([("a.one", "pass"), ("a.one", "warn")], ["a.one", "a.two"])
    assert rows["a.one"] == {
        "exercised": 2,
        "pass": 1,
        "fail": 0,
        "warn": 1,
        "xfail": 0,
        "stale": 0,
    }
    assert exercised_line(rows) == "1 of 2 rules exercised; no case to judge for a.two"


def test_the_terminal_summary_shows_per_rule_counts_and_keeps_its_last_lines() -> None:
    result = CliRunner().invoke(
        cli, ["run", "--adapter", "reference", "--select", "single-tool/*", "--progress", "off"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.rstrip().splitlines()
    assert lines[-1] == "PASS: exit 0"
    assert lines[-2].split()[1] == "pass"
    header = next(line for line in lines if line.startswith("cases exercised per rule"))
    assert "rules exercised" in header
    assert any("pairing.unanswered_call" in line for line in lines)
    verbose = CliRunner().invoke(
        cli,
        ["run", "--adapter", "reference", "--select", "single-tool/*", "--progress", "off", "-v"],
    )
    row = next(line for line in verbose.output.splitlines() if "fidelity.text " in line)
    name, exercised, _, passed, _, fail, _, warn, _ = row.split()
    assert (name, fail, warn) == ("fidelity.text", "0", "0")
    assert exercised == passed and int(exercised) > 0
