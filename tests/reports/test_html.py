"""The HTML report: the matrix, failing rows with explanations in <details>, self-contained."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from tests.reports.factory import document, many_failures, mixed_document, verdict
from toolwire.harness.reports.html_report import MAX_ROWS, render_html
from toolwire.harness.rule_links import documentation_url

RULES_BASE = f"{documentation_url()}/rules/"

VOID = {"meta", "br", "link", "img", "input", "hr", "col", "wbr", "source"}


class Page(HTMLParser):
    """Elements with their attributes, ancestors and text; checks nesting as it goes."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.open_elements: list[dict[str, Any]] = []
        self.elements: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.feed(text)
        self.close()
        if self.stack:
            self.problems.append(f"unclosed: {[tag for tag, _ in self.stack]}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        element = {
            "tag": tag,
            "attrs": attributes,
            "ancestors": [t for t, _ in self.stack],
            "ancestor_classes": [a.get("class", "") for _, a in self.stack],
            "text": "",
        }
        self.elements.append(element)
        if tag not in VOID:
            self.stack.append((tag, attributes))
            self.open_elements.append(element)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append(f"unexpected </{tag}> in {[t for t, _ in self.stack]}")
            return
        self.stack.pop()
        self.open_elements.pop()

    def handle_data(self, data: str) -> None:
        for element in self.open_elements:
            element["text"] += data

    def find(self, tag: str, css_class: str | None = None) -> list[dict[str, Any]]:
        return [
            e
            for e in self.elements
            if e["tag"] == tag
            and (css_class is None or css_class in e["attrs"].get("class", "").split())
        ]


def _page(text: str) -> Page:
    page = Page(text)
    assert page.problems == []
    return page


def test_the_matrix_has_a_row_per_family_and_a_column_per_feature() -> None:
    page = _page(render_html(mixed_document()))
    assert len(page.find("table", "matrix")) == 1
    in_matrix = [e for e in page.elements if "matrix" in e["ancestor_classes"]]
    headers = [e["text"] for e in in_matrix if e["tag"] == "th" and e["attrs"]["scope"] == "col"]
    assert headers[:2] == ["family", "all"]
    assert headers[2:] == ["multi-turn", "parallel", "single-tool", "streaming"]
    rows = [e["text"] for e in in_matrix if e["tag"] == "th" and e["attrs"]["scope"] == "row"]
    assert rows == ["fidelity", "ordering", "pairing", "adapter"]
    cells = [e for e in in_matrix if e["tag"] == "td"]
    assert len(cells) == len(rows) * (len(headers) - 1)
    # colour AND text: every non-empty cell has an outcome class and says the outcome
    for cell in cells:
        outcome = cell["attrs"]["class"]
        if outcome != "empty":
            assert outcome.removeprefix("o-") in cell["text"]
    fidelity_single = cells[3]  # fidelity × single-tool: its one verdict failed
    assert fidelity_single["attrs"]["class"] == "o-fail"
    assert fidelity_single["text"] == "✘ fail1/1"
    pairing_parallel = cells[2 * 5 + 2]  # pairing × parallel
    assert pairing_parallel["attrs"]["class"] == "o-fail"
    assert cells[2 * 5 + 3]["text"] == "✔ pass1"  # pairing × single-tool
    links = [e["attrs"]["href"] for e in page.find("a")]
    assert "#family-fidelity" in links
    assert any(e["attrs"].get("id") == "family-fidelity" for e in page.find("section"))


def test_every_failing_row_has_its_explanation_one_click_away_in_details() -> None:
    source = mixed_document()
    page = _page(render_html(source))
    rows = page.find("details", "row")
    shown = [v for v in source["verdicts"] if v["outcome"] not in ("pass", "unsupported")]
    assert len(rows) == len(shown) == 6
    summaries = [e for e in page.find("summary") if "row" in " ".join(e["ancestor_classes"])]
    assert any("single/weather" in s["text"] and "FAIL" in s["text"] for s in summaries)
    explanations = page.find("pre", "explanation")
    assert len(explanations) == 6
    assert all("details" in e["ancestors"] for e in explanations)
    assert any("$.city: expected 'Paris', got 'Pari'" in e["text"] for e in explanations)


def test_the_page_is_self_contained_and_scriptless() -> None:
    hostile = '<script src="https://evil.example/x.js"></script><img src=//x>'
    text = render_html(document([verdict("c/1", "pairing.a", "fail", hostile)]))
    page = _page(text)
    assert page.find("script") == [] and page.find("link") == [] and page.find("img") == []
    for element in page.elements:
        for name in ("src", "href", "action", "data"):
            value = element["attrs"].get(name, "")
            if element["tag"] == "a" and name == "href" and value.startswith(RULES_BASE):
                continue  # a link to a rule's page: navigation, not a resource loaded
            assert not re.match(r"\s*(https?:)?//", value), (element["tag"], name, value)
    style = text.split("<style>")[1].split("</style>")[0]
    assert "url(" not in style and "@import" not in style
    (csp,) = [m for m in page.find("meta") if m["attrs"].get("http-equiv")]
    assert csp["attrs"]["content"].startswith("default-src 'none'")
    assert "&lt;script src=&quot;https://evil.example/x.js&quot;&gt;" in text


def test_the_page_is_responsive() -> None:
    text = render_html(mixed_document())
    page = _page(text)
    viewport = [m for m in page.find("meta") if m["attrs"].get("name") == "viewport"]
    assert viewport[0]["attrs"]["content"] == "width=device-width, initial-scale=1"
    assert "@media (max-width: 640px)" in text
    assert "max-width: 1240px" in text  # comfortable at 1280 px
    assert page.find("div", "scroll")  # the matrix scrolls sideways on a phone


def test_a_passing_run_says_nothing_failed() -> None:
    page = _page(render_html(document([verdict("c/1", "pairing.a")])))
    assert page.find("details", "row") == []
    assert any(e["text"] == "Nothing failed." for e in page.find("p"))


def test_rows_are_capped_with_a_more_line() -> None:
    text = render_html(many_failures(MAX_ROWS + 7, rules=3))
    assert text.count('<details class="row') == MAX_ROWS
    assert "… and 7 more not shown here" in text


def test_a_real_failing_run(real_documents: dict[str, dict[str, Any]]) -> None:
    source = real_documents["renames-ids"]
    page = _page(render_html(source))
    shown = sum(source["totals"][o] for o in ("fail", "warn", "error", "xfail", "stale"))
    assert len(page.find("details", "row")) == shown
    assert any("pairing.id_changed" in e["text"] for e in page.find("h4"))
    assert "renames-ids 2.0" in page.find("title")[0]["text"]
    assert len(page.find("table", "matrix")) == 1


def test_a_broken_run_shows_the_banner(real_documents: dict[str, dict[str, Any]]) -> None:
    page = _page(render_html(real_documents["raises"]))
    (banner,) = page.find("p", "banner")
    assert "the adapter failed on every case" in banner["text"]
