"""The rule pages: one per catalogue code, in step with the generator, each
with its statement, sources, examples from the corpus and a fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.docs.rule_examples import dump, pick_all
from toolwire.conformance.catalogue import RULE_CODES, RULES, defined_in, get_rule
from toolwire.conformance.pages.docgen import pages
from toolwire.conformance.pages.locations import page_path
from toolwire.conformance.pages.rule_page import load_examples
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "docs" / "rules"
REGENERATE = "run `make rule-pages` (it picks the examples, then writes docs/rules)"


def test_every_catalogue_code_has_a_fix_text() -> None:
    missing = [code for code in RULE_CODES if not get_rule(code).fix.strip()]
    assert missing == [], (
        "rules without a 'how to fix' text: "
        + "; ".join(
            f'add fix=("<what to change in a converter>") to {code} in {defined_in(code)}'
            for code in missing
        )
        + f", then {REGENERATE}"
    )


def test_a_convention_names_a_section_and_why() -> None:
    for rule in RULES:
        if rule.convention is not None:
            section, why = rule.convention
            assert section.strip() and why.strip(), rule.code


def test_every_catalogue_code_has_its_own_page() -> None:
    missing = [code for code in RULE_CODES if not (ROOT / "docs" / page_path(code)).is_file()]
    assert missing == [], f"no page for {missing}: {REGENERATE}"
    assert len({page_path(code) for code in RULE_CODES}) == len(RULE_CODES)


def test_the_committed_pages_equal_the_generator_output() -> None:
    expected = pages()
    stale = [
        name
        for name, text in expected.items()
        if not (RULES_DIR / name).is_file()
        or (RULES_DIR / name).read_text(encoding="utf-8") != text
    ]
    assert stale == [], f"out of date: {stale}; {REGENERATE}"
    # A page left behind by a renamed rule would be a dead end in old reports.
    on_disk = {p.relative_to(RULES_DIR).as_posix() for p in RULES_DIR.glob("*/*.md")}
    assert sorted(on_disk - set(expected)) == []


def test_the_generator_is_deterministic() -> None:
    examples = load_examples()
    assert pages(examples) == pages(json.loads(json.dumps(examples)))


def test_the_committed_examples_are_what_the_picker_picks_now() -> None:
    # The examples are real verdicts: a corpus or rule change that alters them
    # must be seen on the pages.
    picked = dump(pick_all(load_corpus(bundled_corpus_root())))
    stale = [
        str(path.relative_to(ROOT))
        for path, text in picked.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], f"{', '.join(stale)} out of date: {REGENERATE}"


def _page(code: str) -> str:
    return (ROOT / "docs" / page_path(code)).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("code", "failing_case", "passing_from"),
    [
        # a negative corpus case, judged by lint
        ("pairing.orphan_result", "negative/pairing-orphan-result", "the reference adapter"),
        # a broken adapter of the self-test (no file on its own can break it)
        ("fidelity.text", "mixed-text/text-then-call-openai", "the reference adapter"),
        # a convention rule
        ("fidelity.error_flag", "error-result/missing-file-anthropic", "the reference adapter"),
    ],
)
def test_a_page_holds_statement_sources_examples_and_fix(
    code: str, failing_case: str, passing_from: str
) -> None:
    rule = get_rule(code)
    page = _page(code)
    assert f"# {code}\n" in page
    assert rule.statement in page
    assert all(f"<{url}>" in page for url in rule.docs)
    failing = page.split("## Failing example", 1)[1].split("## Passing example", 1)[0]
    passing = page.split("## Passing example", 1)[1].split("## How to fix", 1)[0]
    assert f"`{failing_case}`" in failing and "```json" in failing
    assert passing_from in passing and "```json" in passing
    assert get_rule(code).fix in page.split("## How to fix", 1)[1]


def test_a_must_page_shows_its_evidence_and_a_should_page_says_it_warns() -> None:
    must = _page("pairing.orphan_result")
    assert "https://github.com/FoundationAgents/OpenManus/issues/744" in must
    assert "must be a response to a preceding message" in must  # the provider's words
    should = _page("ordering.result_order")
    assert "A SHOULD" in should and "warns and does not fail" in should
    assert "Why MUST" in must


def test_a_convention_rule_links_its_convention() -> None:
    page = _page("fidelity.error_flag")
    assert "## Convention" in page
    assert "conventions.md#a-failed-tool-result-in-openai-chat" in page


def test_every_rule_has_a_failing_example_and_those_without_a_passing_one_say_so() -> None:
    examples = load_examples()
    for rule in RULES:
        page = _page(rule.code)
        if examples[rule.code]["failing"] is None:
            assert "No corpus case or self-test verdict shows this rule failing yet." in page
        if examples[rule.code]["passing"] is None:
            assert "No corpus case shows this rule passing yet." in page
    assert [c for c in RULE_CODES if examples[c]["failing"] is None] == []
