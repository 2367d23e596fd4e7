"""Every link of a generated report leads somewhere, and every rule the docs
name is a rule with a page.

A report's links are followed without a network: an in-page ``#fragment``
to an element of the report, a link under the documentation base to the
file of this checkout it names (and its heading), and any other URL to a
document the rule definitions cite (a provider's page, an issue): nothing
made up. The embedded rule pages are the shipped ones, and `toolwire rule`
prints each page the docs refer to.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag

import pytest
from click.testing import CliRunner

from tests.docs.test_links import anchors
from toolwire.conformance.catalogue import FAMILIES, RULES, RULES_BY_CODE
from toolwire.harness.cli.main import cli
from toolwire.harness.reports.rule_pages_html import page_anchor
from toolwire.harness.rule_links import documentation_url, rule_url
from toolwire.harness.rule_pages import page_text

ROOT = Path(__file__).resolve().parents[2]
# Broken on several rules of several families, with SHOULD verdicts too.
ADAPTER = "tests.engine.test_adapters:ReturnsGarbage"
SPLIT = "tests.selftest.broken_requests:ResultsSplit"
DOC_PAGES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), ROOT / "reports" / "README.md"]
)
# `family.name` in the docs that is not a rule: wire fields named like one,
# and the misspelt code docs/hostile-input.md shows being refused.
NOT_RULES = {
    "reasoning.effort": "an OpenAI Responses request field",
    "reasoning.encrypted_content": "an OpenAI Responses request field",
    "reasoning.text": "a field of the canonical model",
    "schema.requst": "the typo a --select example refuses",
}
RULE_REFERENCE = re.compile(
    r"(?<![\w./-])(?:" + "|".join(FAMILIES) + r")\.[a-z][a-z0-9_]*(?![\w(/-]|\.\w)"
)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.hrefs.append(str(values["href"]))


def _cited_urls() -> set[str]:
    urls = {url for rule in RULES for url in rule.docs}
    return urls | {evidence.url for rule in RULES for evidence in rule.evidence}


def _checkout_file(url: str) -> Path | None:
    """The file of this checkout a URL under the documentation base names."""
    base = documentation_url()
    assert base is not None and base.endswith("/docs"), base
    top = base.removesuffix("/docs")
    return ROOT / url.removeprefix(top + "/") if url.startswith(top + "/") else None


def _broken(href: str, ids: set[str], cited: set[str]) -> str | None:
    if href.startswith("#"):
        return None if href[1:] in ids else "no such element in the report"
    url, fragment = urldefrag(href)
    local = _checkout_file(url)
    if local is not None:
        if not local.is_file():
            return f"no file {local.relative_to(ROOT)}"
        if fragment and local.suffix == ".md" and fragment not in anchors(local):
            return f"no heading #{fragment} in {local.name}"
        return None
    return None if url in cited or href in cited else "a URL no rule definition cites"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    written = []
    for spec, select in ((ADAPTER, "single-tool/*,streaming/*,parallel/*"), (SPLIT, "parallel/*")):
        folder = tmp_path_factory.mktemp("links")
        done = CliRunner().invoke(
            cli,
            ["run", "--adapter", spec, "--select", select, "--report-dir", str(folder)],
            catch_exceptions=False,
        )
        assert done.exit_code in (0, 1, 3), done.output
        written.append(folder / "results.json")
    return written


def _report(results: Path, form: str) -> str:
    done = CliRunner().invoke(cli, ["report", str(results), "--format", form])
    assert done.exit_code == 0, done.output
    return done.output


def test_every_link_of_the_html_report_leads_somewhere(results: list[Path]) -> None:
    cited = _cited_urls()
    followed = 0
    for path in results:
        parser = _Links()
        parser.feed(_report(path, "html"))
        broken = {href: why for href in parser.hrefs if (why := _broken(href, parser.ids, cited))}
        assert broken == {}
        followed += len(parser.hrefs)
    assert followed > 100  # the matrix, the failures, and the embedded pages' links


def test_every_link_of_the_markdown_report_leads_somewhere(results: list[Path]) -> None:
    cited = _cited_urls()
    for path in results:
        hrefs = re.findall(r"\]\((\S+?)\)", _report(path, "md"))
        assert hrefs
        assert {h: why for h in hrefs if (why := _broken(h, set(), cited))} == {}


def test_the_report_embeds_the_page_of_every_rule_it_cites(results: list[Path]) -> None:
    for path in results:
        parser = _Links()
        text = _report(path, "html")
        parser.feed(text)
        cited = {
            code
            for href in parser.hrefs
            for code in RULES_BY_CODE
            if href == rule_url(code) and f'id="{_rule_heading(code)}"' in text
        }
        assert cited
        for code in cited:
            assert f"#{page_anchor(code)}" in parser.hrefs, code
            assert page_anchor(code) in parser.ids, code
        embedded = {i.removeprefix("page-") for i in parser.ids if i.startswith("page-")}
        assert embedded == cited  # the cited rules' pages, and no other


def _rule_heading(code: str) -> str:
    return "rule-" + re.sub(r"[^A-Za-z0-9_.-]", "-", code)


def test_the_terminal_names_the_offline_page_beside_the_link() -> None:
    done = CliRunner().invoke(
        cli, ["run", "--adapter", SPLIT, "--select", "parallel/two-cities-openai"]
    )
    code = "ordering.parallel_results_split"
    assert f"Docs: {rule_url(code)}  (offline: toolwire rule {code})" in done.output


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_the_docs_name_is_a_rule_with_a_page(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = set(RULE_REFERENCE.findall(text)) - set(NOT_RULES)
    named = {code for code in named if not code.endswith(".md")}  # a family's page
    assert {code for code in named if code not in RULES_BY_CODE} == set()
    for code in named:
        assert page_text(code).startswith(f"# {code}\n")


def test_the_docs_check_sees_rule_references() -> None:
    readme_and_docs = "".join(page.read_text(encoding="utf-8") for page in DOC_PAGES)
    named = set(RULE_REFERENCE.findall(readme_and_docs))
    assert len(named & set(RULES_BY_CODE)) > 40
    sample = "see `pairing.orphn_result`, xml.md and stream.chunk_id. Not reasoning.text.value"
    assert RULE_REFERENCE.findall(sample) == ["pairing.orphn_result", "xml.md", "stream.chunk_id"]
