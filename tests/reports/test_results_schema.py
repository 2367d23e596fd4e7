"""The results JSON and its published schema, checked on real `toolwire run` output."""

from __future__ import annotations

import copy
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from tests.reports.factory import mixed_document
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import bundled_corpus_root
from toolwire.harness.reports.load import results_schema, schema_text
from toolwire.harness.results.document import corpus_version

RESULTS_SCHEMA = Path(__file__).parents[2] / "harness" / "reports" / "results.schema.json"


def _errors(document: Any) -> list[str]:
    validator = Draft202012Validator(results_schema())
    return [error.message for error in validator.iter_errors(document)]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = json.loads(RESULTS_SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema_text() == RESULTS_SCHEMA.read_text()  # what ships is what is published


def test_run_schema_prints_the_schema_without_running() -> None:
    # --schema is eager: even an adapter that does not exist is never loaded.
    result = CliRunner().invoke(cli, ["run", "--adapter", "no.such:thing", "--schema"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(RESULTS_SCHEMA.read_text())


@pytest.mark.parametrize("adapter", ["reference", "garbage", "renames-ids", "raises"])
def test_real_run_output_matches_the_schema(
    adapter: str, real_documents: dict[str, dict[str, Any]]
) -> None:
    assert _errors(real_documents[adapter]) == []


def test_run_format_json_matches_the_schema() -> None:
    result = CliRunner().invoke(
        cli,
        ["run", "--adapter", "tests.engine.test_adapters:ReturnsGarbage", "--format", "json"],
    )
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert _errors(document) == []
    assert document["totals"]["fail"] > 0


def test_the_header_records_versions_times_and_the_adapter(
    real_documents: dict[str, dict[str, Any]],
) -> None:
    document = real_documents["renames-ids"]
    assert document["adapter"] == {
        "name": "renames-ids",
        "version": "2.0",
        "spec": "tests.reports.adapters:RenamesIds",
    }
    assert document["corpus"]["version"] == corpus_version(bundled_corpus_root())
    assert len(document["corpus"]["version"]) == 12
    assert document["started"] <= document["finished"]
    assert document["python"].count(".") == 2


def test_failing_verdicts_carry_explanation_and_diff(
    real_documents: dict[str, dict[str, Any]],
) -> None:
    failing = [v for v in real_documents["renames-ids"]["verdicts"] if v["outcome"] == "fail"]
    assert failing
    assert all(v["explanation"].startswith(f"FAIL {v['id']}") for v in failing)
    diffs = [f["diff"] for v in failing for f in v["findings"] if f["diff"]]
    assert any("'call_" in diff and "'cal_" in diff for diff in diffs)


def test_totals_by_feature_count_each_verdict_once_per_feature_of_its_case(
    real_documents: dict[str, dict[str, Any]],
) -> None:
    document = real_documents["renames-ids"]
    expected: dict[str, Counter[str]] = {}
    for record in document["verdicts"]:
        for feature in document["case_features"][record["case"]]:
            expected.setdefault(feature, Counter())[record["outcome"]] += 1
    assert set(document["totals_by_feature"]) == set(expected)
    for feature, counts in document["totals_by_feature"].items():
        assert {o: n for o, n in counts.items() if n} == dict(expected[feature])
    assert document["case_features"]["parallel/two-cities-openai"] == ["parallel"]
    assert document["totals_by_feature"]["parallel"]["fail"] > 0


def test_the_corpus_version_changes_with_any_case_file(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(bundled_corpus_root(), corpus)
    before = corpus_version(corpus)
    assert before == corpus_version(bundled_corpus_root())  # the path itself does not count
    case = next(corpus.rglob("*.yaml"))
    case.write_text(case.read_text() + "\n# edited\n")
    edited = corpus_version(corpus)
    assert edited != before
    case.rename(case.with_name("renamed.yaml"))
    assert corpus_version(corpus) not in (before, edited)
    assert corpus_version(tmp_path / "missing") is None


def test_the_synthetic_factory_matches_the_schema() -> None:
    assert _errors(mixed_document()) == []


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda d: d["verdicts"][1].update(outcome="maybe"), "'maybe' is not one of"),
        (lambda d: d["verdicts"][1].pop("explanation"), "'explanation' is a required property"),
        (lambda d: d.update(surprise=1), "Additional properties are not allowed"),
        (lambda d: d["totals"].pop("stale"), "'stale' is a required property"),
        (lambda d: d.update(exit_code=2), "2 is not one of"),
        (lambda d: d["corpus"].pop("version"), "'version' is a required property"),
    ],
)
def test_the_schema_rejects_damaged_documents(damage: Any, expected: str) -> None:
    document = copy.deepcopy(mixed_document())
    damage(document)
    assert any(expected in message for message in _errors(document)), _errors(document)
