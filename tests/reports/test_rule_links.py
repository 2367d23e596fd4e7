"""Every report format and the terminal link a failing rule to its page by
absolute URL (a report travels: CI artifacts, job summaries, mail), and the
URL points at a page that exists in docs/rules."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolwire.conformance.catalogue import RULE_CODES
from toolwire.harness import rule_links
from toolwire.harness.cli.main import cli
from toolwire.harness.rule_links import documentation_url, rule_url, rules_index_url

ROOT = Path(__file__).resolve().parents[2]
BROKEN = "tests.selftest.broken_requests:DescriptionLost"  # breaks fidelity.tool_definitions
CASE = "single-tool/weather-openai"
CODE = "fidelity.tool_definitions"


def _docs_file(url: str) -> Path:
    base = documentation_url()
    assert base is not None and url.startswith(base + "/"), url
    return ROOT / "docs" / url.removeprefix(base + "/")


def test_the_base_is_the_documentation_url_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert documentation_url() == project["urls"]["Documentation"].rstrip("/")
    assert documentation_url().startswith("https://")  # type: ignore[union-attr]


def test_every_rule_url_is_absolute_and_names_an_existing_page() -> None:
    for code in RULE_CODES:
        url = rule_url(code)
        assert url is not None and url.startswith("https://"), code
        assert _docs_file(url).is_file(), url
    assert _docs_file(rules_index_url()).is_file()
    assert rule_url("convert") is None  # about the adapter, not a rule


def test_the_pyproject_fallback_reads_the_documentation_entry(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "toolwire"\n[project.urls]\nDocumentation = "https://x.example/d"\n'
    )
    assert rule_links._from_pyproject(pyproject) == "https://x.example/d"
    pyproject.write_text('[project]\nname = "other"\n[project.urls]\nDocumentation = "u"\n')
    assert rule_links._from_pyproject(pyproject) is None  # another project's file
    assert rule_links._from_pyproject(tmp_path / "missing.toml") is None


def test_installed_metadata_wins_over_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rule_links, "_from_metadata", lambda: "https://installed.example/docs/")
    rule_links.documentation_url.cache_clear()
    try:
        assert (
            rule_url(CODE)
            == f"https://installed.example/docs/rules/fidelity/{'tool_definitions'}.md"
        )
    finally:
        rule_links.documentation_url.cache_clear()


@pytest.fixture(scope="module")
def run_output(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("run") / "out"
    result = CliRunner().invoke(
        cli,
        ["run", "--adapter", BROKEN, "--select", CASE, "--report-dir", str(folder)],
        catch_exceptions=False,
    )
    assert result.exit_code == 1, result.output
    return result.output, folder / "results.json"


def _report(results: Path, form: str) -> str:
    result = CliRunner().invoke(cli, ["report", str(results), "--format", form])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_terminal_explanation_prints_the_rule_url(run_output: tuple[str, Path]) -> None:
    output, _ = run_output
    url = rule_url(CODE)
    assert f"  Docs: {url}" in output
    failures = output.count(f"FAIL {CASE}::{CODE}")
    assert failures >= 1 and output.count(f"Docs: {url}") == failures  # once per explanation
    assert _docs_file(str(url)).is_file()


def test_markdown_makes_the_rule_a_link(run_output: tuple[str, Path]) -> None:
    text = _report(run_output[1], "md")
    assert f"[`{CODE}`]({rule_url(CODE)})" in text


def test_html_makes_the_rule_a_link(run_output: tuple[str, Path]) -> None:
    text = _report(run_output[1], "html")
    assert f'<a class="rule" href="{rule_url(CODE)}"><code>{CODE}</code></a>' in text


def test_junit_puts_the_url_in_the_failure_message(run_output: tuple[str, Path]) -> None:
    text = _report(run_output[1], "junit")
    assert f"(rule page: {rule_url(CODE)})" in text


def test_the_results_explanation_carries_the_url(run_output: tuple[str, Path]) -> None:
    document = json.loads(run_output[1].read_text(encoding="utf-8"))
    failing = [v for v in document["verdicts"] if v["rule"] == CODE and v["outcome"] == "fail"]
    assert failing and all(f"Docs: {rule_url(CODE)}" in v["explanation"] for v in failing)
