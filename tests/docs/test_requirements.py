"""The requirements inventory (docs/requirements/manifest.json) against the
rules: every documented requirement a rule that can fail a run cites is listed
and mapped to that rule; every entry is judged by an existing rule or excluded
with a reason; the Open Responses mapping names only existing rules; the pages
and the coverage figures of docs/accuracy.md are the manifest's."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from toolwire.conformance import requirements as rq
from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.rule import documented
from toolwire.harness.model import DIALECTS

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "requirements"
# The open issues an exclusion may name (issues 26-32 at the inventory's writing).
OPEN_ISSUES = range(26, 33)


@pytest.fixture(scope="module")
def manifest() -> rq.Manifest:
    return rq.load(FOLDER / rq.MANIFEST_NAME)


def test_every_entry_is_judged_by_an_existing_rule_or_excluded(manifest: rq.Manifest) -> None:
    assert rq.entry_problems(manifest, RULES_BY_CODE, DIALECTS) == []


def test_every_documented_requirement_a_must_rule_cites_is_in_the_inventory(
    manifest: rq.Manifest,
) -> None:
    assert rq.uncited_evidence(manifest, RULES_BY_CODE) == []


def test_every_dialect_has_an_inventory(manifest: rq.Manifest) -> None:
    assert sorted(inventory.dialect for inventory in manifest.dialects) == sorted(DIALECTS)


def test_exclusions_and_gaps_name_an_open_issue_or_none(manifest: rq.Manifest) -> None:
    issues = [
        (inventory.dialect, requirement.id, left.issue)
        for inventory in manifest.dialects
        for requirement in inventory.requirements
        for left in (requirement.excluded, requirement.gap)
        if left is not None and left.issue is not None
    ]
    assert issues
    assert [entry for entry in issues if entry[2] not in OPEN_ISSUES] == []


def test_open_responses_checks_name_only_existing_rules(manifest: rq.Manifest) -> None:
    assert manifest.suite_checks
    named = {code for check in manifest.suite_checks for code in check.rules}
    assert sorted(named - set(RULES_BY_CODE)) == []
    assert [
        check.id for check in manifest.suite_checks if not check.rules and not check.not_judged
    ] == []


def test_pages_are_the_manifests(manifest: rq.Manifest) -> None:
    stale = [
        name
        for name, text in rq.pages(manifest).items()
        if not (FOLDER / name).is_file() or (FOLDER / name).read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run: python -m toolwire.conformance.requirements docs/requirements"


def test_no_page_is_left_over(manifest: rq.Manifest) -> None:
    assert sorted(path.name for path in FOLDER.glob("*.md")) == sorted(rq.pages(manifest))


def test_accuracy_gives_the_coverage_of_the_manifest(manifest: rq.Manifest) -> None:
    accuracy = (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")
    expected = rq.coverage_table(manifest).replace("](", "](requirements/")
    assert expected in accuracy
    entries = [r for inventory in manifest.dialects for r in inventory.requirements]
    stored = sum(1 for r in entries if r.checked and r.checked.startswith("https://"))
    indexed = sum(1 for r in entries if r.checked and r.checked.startswith(rq.CODE_INDEX))
    said = re.search(r"tools: (\d+) in a\s+stored page.*?\), (\d+) verbatim", accuracy, re.S)
    assert said is not None
    assert (int(said[1]), int(said[2])) == (stored, indexed)
    assert re.search(rf"stream: {len(entries)}\s+requirements", accuracy)


# --- the checks fail where they should -----------------------------------------


def _without(manifest: rq.Manifest, dialect: str, entry: str) -> rq.Manifest:
    dialects = tuple(
        dataclasses.replace(
            inventory,
            requirements=tuple(r for r in inventory.requirements if r.id != entry),
        )
        if inventory.dialect == dialect
        else inventory
        for inventory in manifest.dialects
    )
    return dataclasses.replace(manifest, dialects=dialects)


def test_a_cited_requirement_missing_from_the_inventory_is_reported(manifest: rq.Manifest) -> None:
    thinner = _without(manifest, "openai-chat", "chunk-id")
    assert any(
        line.startswith("stream.chunk_id cites ")
        for line in rq.uncited_evidence(thinner, RULES_BY_CODE)
    )


def test_a_rule_citing_a_page_nobody_listed_is_reported(manifest: rq.Manifest) -> None:
    rule = RULES_BY_CODE["pairing.orphan_result"]
    extra = dataclasses.replace(
        rule,
        evidence=(
            *rule.evidence,
            documented("https://example.invalid/unlisted", "a new requirement"),
        ),
    )
    missing = rq.uncited_evidence(manifest, {**RULES_BY_CODE, rule.code: extra})
    assert missing == [
        "pairing.orphan_result cites https://example.invalid/unlisted ('a new requirement'); "
        "no inventory entry there names it"
    ]


def test_a_should_rule_needs_no_inventory_entry(manifest: rq.Manifest) -> None:
    rule = RULES_BY_CODE["fidelity.usage"]
    assert not rule.can_be_must
    extra = dataclasses.replace(
        rule, evidence=(documented("https://example.invalid/unlisted", "x"),)
    )
    assert rq.uncited_evidence(manifest, {**RULES_BY_CODE, rule.code: extra}) == []


def _parsed_with(change: Mapping[str, object]) -> rq.Manifest:
    data = json.loads((FOLDER / rq.MANIFEST_NAME).read_text(encoding="utf-8"))
    first = data["dialects"][0]["requirements"][0]
    first.pop("rules", None)
    first.pop("excluded", None)
    first.update(change)
    return rq.parse(data)


def test_an_entry_with_neither_rule_nor_exclusion_is_reported() -> None:
    problems = rq.entry_problems(_parsed_with({}), RULES_BY_CODE, DIALECTS)
    assert problems == [
        "openai-chat/tool-call-id: neither a rule judges it nor an exclusion says why not"
    ]


def test_an_entry_naming_no_rule_is_reported() -> None:
    problems = rq.entry_problems(
        _parsed_with({"rules": ["pairing.no_such_rule"]}), RULES_BY_CODE, DIALECTS
    )
    assert problems == ["openai-chat/tool-call-id: names pairing.no_such_rule, which is no rule"]


def test_a_gap_in_an_unjudged_entry_is_reported() -> None:
    gap = {"gap": {"reason": "a part", "issue": 27}}
    problems = rq.entry_problems(_parsed_with(gap), RULES_BY_CODE, DIALECTS)
    assert "openai-chat/tool-call-id: a gap in what no rule judges; exclude it instead" in problems


def test_a_checked_reference_of_no_known_form_is_reported() -> None:
    change = {"rules": ["pairing.call_id_missing"], "checked": "somewhere"}
    problems = rq.entry_problems(_parsed_with(change), RULES_BY_CODE, DIALECTS)
    assert problems == ["openai-chat/tool-call-id: 'checked' is neither a URL nor code:ID"]


def test_an_open_responses_check_naming_no_rule_is_reported(manifest: rq.Manifest) -> None:
    broken = dataclasses.replace(
        manifest.suite_checks[0], rules=("stream.no_such_rule",), not_judged=None
    )
    changed = dataclasses.replace(manifest, suite_checks=(broken, *manifest.suite_checks[1:]))
    problems = rq.entry_problems(changed, RULES_BY_CODE, DIALECTS)
    assert problems == [f"open-responses/{broken.id}: names stream.no_such_rule, which is no rule"]


def test_a_stale_page_is_told_apart(manifest: rq.Manifest) -> None:
    thinner = _without(manifest, "openai-chat", "chunk-id")
    assert rq.pages(thinner)["openai-chat.md"] != (FOLDER / "openai-chat.md").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "the manifest must be an object with a 'dialects' list"),
        ('{"dialects": []}', "the manifest needs 'open_responses' with a 'checks' list"),
    ],
)
def test_a_malformed_manifest_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(rq.RequirementsError, match=re.escape(message)):
        rq.load(path)


def test_a_manifest_that_is_not_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(rq.RequirementsError, match="is not JSON"):
        rq.load(path)
