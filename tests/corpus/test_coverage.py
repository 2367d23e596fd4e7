"""The coverage report: counts, and which cases are positive or negative for each rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.corpus.factory import OPENAI_STREAM, interaction, make_case, twin_pair, write_case_file
from toolwire.conformance.catalogue import RULE_CODES
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.coverage import (
    NEGATIVE_BY_ADAPTER,
    NEGATIVE_BY_CORPUS,
    corpus_coverage,
    direction_counts,
)
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.model import DIALECTS

ORPHAN = "negative/orphan-result"


def _negative_case(root: Path) -> None:
    document = make_case(
        ORPHAN,
        features=["negative", "single-tool"],
        expect={"violations": ["pairing.orphan_result"]},
    )
    write_case_file(root, ORPHAN, document)


def _stream_case(root: Path) -> None:
    document = make_case("streaming/hello", features=["streaming"])
    request = {
        "model": "gpt-4o-mini",
        "stream": True,
        "messages": [{"role": "user", "content": "Hi"}],
    }
    document["interactions"] = [interaction(request, OPENAI_STREAM, stream=True)]
    write_case_file(root, "streaming/hello", document)


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "corpus"
    twin_pair(folder)
    _negative_case(folder)
    return folder


def _rules(report: Any) -> dict[str, Any]:
    return {rule.code: rule for rule in report.rules}


def test_positive_means_judged_and_held_on_a_non_negative_case(root: Path) -> None:
    report = corpus_coverage(load_corpus(root), load_adapter("reference"))
    rules = _rules(report)
    assert set(rules) == set(RULE_CODES)
    both = ("single-tool/weather-anthropic", "single-tool/weather-openai")
    # The response's tool call has an id: judged by lint on both cases.
    assert rules["pairing.call_id_missing"].positive == both
    # No tool result anywhere: the result rules had nothing to judge.
    assert rules["pairing.orphan_result"].positive == ()
    # No stream, no thinking, no DeepSeek case: nothing judged.
    assert rules["stream.index_collision"].positive == ()
    assert rules["reasoning.signature_lost"].positive == ()
    assert rules["reasoning.replay_missing"].positive == ()
    # A conversion rule counts through the reference adapter's output.
    assert rules["fidelity.tool_definitions"].positive == both
    # The negative case is never a positive one, whatever it holds.
    assert all(ORPHAN not in rule.positive for rule in report.rules)
    assert report.notes == ()


def test_negative_means_named_by_a_negative_case(root: Path) -> None:
    report = corpus_coverage(load_corpus(root))
    rules = _rules(report)
    assert rules["pairing.orphan_result"].negative == (ORPHAN,)
    assert rules["pairing.orphan_result"].negative_by == NEGATIVE_BY_CORPUS
    assert rules["fidelity.text"].negative_by == NEGATIVE_BY_ADAPTER
    assert "pairing.orphan_result" not in report.missing_negative
    assert "pairing.duplicate_result" in report.missing_negative
    # Conversion rules never count as missing a negative corpus case.
    assert "fidelity.text" not in report.missing_negative


def test_without_an_adapter_only_lint_and_the_pass_through_judge(root: Path) -> None:
    corpus = load_corpus(root)
    lint_only = _rules(corpus_coverage(corpus, pass_through=False))
    assert lint_only["fidelity.tool_definitions"].positive == ()
    assert lint_only["pairing.call_id_missing"].positive != ()
    with_proxy = _rules(corpus_coverage(corpus))
    assert with_proxy["fidelity.tool_definitions"].positive != ()
    assert corpus_coverage(corpus).judged_with == ("lint", "pass-through")


def test_a_stream_case_becomes_positive_for_the_stream_rules(root: Path) -> None:
    _stream_case(root)
    rules = _rules(corpus_coverage(load_corpus(root)))
    assert rules["stream.event_order"].positive == ("streaming/hello",)
    assert rules["stream.partial_json"].positive == ()  # no streamed call to join


def test_an_unknown_code_and_an_unjudgeable_case_become_notes(root: Path) -> None:
    document = make_case(
        "negative/typo", features=["negative"], expect={"violations": ["pairing.orphan_results"]}
    )
    write_case_file(root, "negative/typo", document)
    broken = make_case("single-tool/broken")
    broken["interactions"][0]["request"]["body"] = json.dumps({"messages": "not a list"})
    write_case_file(root, "single-tool/broken", broken)
    report = corpus_coverage(load_corpus(root))
    assert report.notes[0] == "negative/typo: expects 'pairing.orphan_results', which no rule has"
    assert report.notes[1].startswith("single-tool/broken: its payloads could not be judged (")


def test_counts_by_direction_provenance_and_feature(root: Path) -> None:
    _stream_case(root)
    corpus = load_corpus(root)
    assert direction_counts(corpus) == {
        "request openai-chat": 3,
        "request anthropic-messages": 1,
        "request anthropic-messages->openai-chat": 1,
        "request openai-chat->anthropic-messages": 1,
        "response openai-chat": 2,
        "response anthropic-messages": 1,
        "response anthropic-messages->openai-chat": 1,
        "response openai-chat->anthropic-messages": 1,
        "stream openai-chat": 1,
    }
    report = corpus_coverage(corpus, pass_through=False)
    assert report.provenance == {"documented": 4}
    assert report.features_by_dialect["single-tool"] == {
        "openai-chat": 2,
        "anthropic-messages": 1,
    }
    assert report.features_by_dialect["streaming"] == {"openai-chat": 1}


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_list_json_carries_the_coverage(root: Path) -> None:
    result = run("corpus", "list", "--corpus", "corpus", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["total"] == 3
    assert data["provenance"] == {"documented": 3}
    assert data["directions"]["request openai-chat->anthropic-messages"] == 1
    coverage = data["coverage"]
    assert coverage["judged_with"] == ["lint", "reference", "pass-through"]
    assert set(coverage["rules"]) == set(RULE_CODES)
    assert coverage["rules"]["pairing.orphan_result"] == {
        "level": "MUST",
        "scopes": ["payload"],
        "positive": [],
        "negative": [ORPHAN],
        "negative_by": "corpus",
    }
    assert "pairing.orphan_result" in coverage["missing"]["positive"]
    assert "pairing.duplicate_result" in coverage["missing"]["negative"]
    assert coverage["features_by_dialect"]["negative"] == {"openai-chat": 1}


def test_list_text_prints_the_tables(root: Path) -> None:
    result = run("corpus", "list", "--corpus", "corpus")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "by provenance: documented 3" in lines
    header = next(line for line in lines if line.startswith("FEATURE"))
    assert header.split() == ["FEATURE", *DIALECTS, "total"]
    single = next(line for line in lines if line.startswith("single-tool "))
    # openai-chat 2, anthropic-messages 1, none in the dialects after them.
    assert single.split() == ["single-tool", "2", "1", *["-"] * (len(DIALECTS) - 2), "3"]
    orphan = next(line for line in lines if line.startswith("pairing.orphan_result "))
    assert orphan.split() == ["pairing.orphan_result", "MUST", "-", "1"]
    text_rule = next(line for line in lines if line.startswith("fidelity.text "))
    assert text_rule.split() == ["fidelity.text", "MUST", "2", "adapter", "self-test"]
    direction = next(line for line in lines if line.startswith("openai-chat->anthropic-messages"))
    assert direction.split() == ["openai-chat->anthropic-messages", "1", "1", "-"]
    missing = next(line for line in lines if line.startswith("missing negative: "))
    assert "pairing.duplicate_result" in missing


def test_list_without_coverage_skips_the_judging(root: Path) -> None:
    result = run("corpus", "list", "--corpus", "corpus", "--format", "json", "--no-coverage")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert "coverage" not in data
    assert data["provenance"] == {"documented": 3}  # counting needs no judging
    text = run("corpus", "list", "--corpus", "corpus", "--no-coverage").output
    assert "features × dialects" not in text
    assert text.splitlines()[-1].startswith("by dialect: ")
