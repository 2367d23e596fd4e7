"""`toolwire rule CODE` prints a rule's page offline: the committed page,
with every part a reader needs; an unknown code is a usage error with close
matches. And `toolwire --help` names all six dialects."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from toolwire.conformance.catalogue import RULE_CODES, RULES
from toolwire.harness import rule_pages
from toolwire.harness.cli.main import cli
from toolwire.harness.model import DIALECTS
from toolwire.harness.rule_links import rule_url

ROOT = Path(__file__).resolve().parents[2]
CODE = "ordering.parallel_results_split"


def _rule(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["rule", *args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_a_rule_page_is_the_committed_page_with_every_part() -> None:
    code, output = _rule(CODE)
    assert code == 0
    committed = (ROOT / "docs" / "rules" / "ordering" / "parallel_results_split.md").read_text()
    assert output == committed + f"\nOnline: {rule_url(CODE)}\n"
    for part in (
        "> All tool results",  # the statement
        "## Why",
        "rejection (a real API or client refused it)",  # the evidence
        "## Failing example",
        "## Passing example",
        "## How to fix",
    ):
        assert part in output, part


def test_every_rule_has_a_page_offline() -> None:
    for rule in RULE_CODES:
        assert rule_pages.page_text(rule).startswith(f"# {rule}\n"), rule


def test_without_the_shipped_pages_the_page_is_written_from_the_definition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shipped = rule_pages.page_text(CODE)
    monkeypatch.setattr(rule_pages, "PAGES_PACKAGE", "toolwire._no_such_pages")
    assert rule_pages.page_text(CODE) == shipped


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("ordering.parallel_result_split", "ordering.parallel_results_split"),
        ("orphan_result", "pairing.orphan_result"),
        ("PAIRING.ORPHAN_RESULT", "pairing.orphan_result"),
    ],
)
def test_an_unknown_code_is_a_usage_error_with_close_matches(typed: str, suggested: str) -> None:
    code, output = _rule(typed)
    assert code == 2
    [line] = [line for line in output.splitlines() if line.startswith("toolwire: error:")]
    assert f"{typed!r} is not a rule code" in line and suggested in line


def test_without_a_code_every_rule_is_listed() -> None:
    code, output = _rule()
    assert code == 0
    lines = output.splitlines()
    for rule in RULES:
        assert any(line.startswith(rule.code + " ") for line in lines), rule.code
    assert f"{len(RULES)} rules: `toolwire rule CODE` prints one's page" in output
    [split] = [line for line in lines if line.startswith(CODE + " ")]
    assert "MUST/SHOULD" in split  # MUST, SHOULD under the default profile anthropic


def test_help_names_all_six_dialects() -> None:
    output = CliRunner().invoke(cli, ["--help"]).output
    assert len(DIALECTS) == 6
    for dialect in DIALECTS:
        assert f"({dialect})" in output, dialect
