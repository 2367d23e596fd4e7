from __future__ import annotations

import re

import pytest

from tests.support.real_transcripts import PROJECT_ROOT, shared_dir
from toolwire.conformance.catalogue import FAMILIES, RULE_CODES, RULES, get_rule
from toolwire.conformance.pages.docgen import render_family
from toolwire.conformance.profiles import DEFAULT_PROFILE, PROFILES
from toolwire.harness.model import DIALECTS

CODE = re.compile(r"^[a-z]+\.[a-z_]+$")


def test_codes_are_unique_namespaced_slugs() -> None:
    assert len(set(RULE_CODES)) == len(RULE_CODES)
    for code in RULE_CODES:
        assert CODE.match(code), code
        assert code.split(".")[0] in FAMILIES


def test_every_rule_cites_documentation_and_states_itself_in_one_sentence() -> None:
    for rule in RULES:
        assert rule.docs, rule.code
        assert all(url.startswith("https://") for url in rule.docs), rule.code
        assert rule.statement.endswith("."), rule.code
        assert rule.level in ("MUST", "SHOULD")
        assert rule.scopes


def test_profile_levels_name_known_profiles_only() -> None:
    for rule in RULES:
        assert set(rule.profile_levels) <= set(PROFILES), rule.code
    assert set(DEFAULT_PROFILE) == set(DIALECTS)
    assert all(name in PROFILES for name in DEFAULT_PROFILE.values())


def test_splitting_results_is_should_only_where_the_target_merges() -> None:
    # Vertex AI, DeepSeek's Anthropic endpoint and Anthropic's API have answered
    # 400 to split results: MUST by default (docs/levels.md).
    rule = get_rule("ordering.parallel_results_split")
    assert rule.level_for("anthropic-strict") == "MUST"
    assert rule.level_for("anthropic") == "MUST"
    assert rule.level_for("anthropic-merging") == "SHOULD"


def test_replay_missing_is_a_should_where_the_request_shows_no_thinking_mode() -> None:
    rule = get_rule("reasoning.replay_missing")
    assert rule.level_for("deepseek-thinking") == "MUST"
    assert rule.level_for("deepseek") == "SHOULD"
    assert get_rule("reasoning.replay_forbidden").level_for("deepseek") is None


def test_reasoning_replay_is_out_of_scope_for_the_legacy_reasoner() -> None:
    assert get_rule("reasoning.replay_missing").level_for("deepseek-reasoner-legacy") is None
    assert get_rule("reasoning.replay_forbidden").level_for("deepseek-reasoner-legacy") == "MUST"
    assert get_rule("reasoning.replay_forbidden").level_for("deepseek-thinking") is None


def test_catalogue_covers_every_code_of_wire_md() -> None:
    wire = shared_dir() / "WIRE.md"
    if not wire.is_file():
        pytest.skip(f"{wire} not found (set TOOLWIRE_SHARED to check against it)")
    section = wire.read_text(encoding="utf-8").split("## 2. The rules", 1)[1].split("## 3.", 1)[0]
    codes = set(re.findall(r"`((?:{})\.[a-z_]+)`".format("|".join(FAMILIES)), section))
    assert len(codes) >= 40
    assert codes <= set(RULE_CODES), sorted(codes - set(RULE_CODES))


@pytest.mark.parametrize("family", FAMILIES)
def test_rule_docs_are_in_step_with_the_catalogue(family: str) -> None:
    page = PROJECT_ROOT / "docs" / "rules" / f"{family}.md"
    assert page.read_text(encoding="utf-8") == render_family(family), (
        f"{page} is out of date: run `python -m toolwire.conformance.pages docs/rules`"
    )


def test_every_anchor_is_a_heading_of_its_family_page() -> None:
    for rule in RULES:
        page = (PROJECT_ROOT / "docs" / "rules" / f"{rule.family}.md").read_text()
        assert f"\n## {rule.code}\n" in page
        assert rule.anchor == rule.code.replace(".", "")
