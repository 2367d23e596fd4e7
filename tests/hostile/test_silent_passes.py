"""Inputs that used to pass in silence, or put the blame in the wrong place
(docs/hostile-input.md, rows C14-C18 and V1-V7).

A run that judged nothing, a timeout that is no timeout, cases skipped
without a word: each is now a one-line usage error (exit 2) or a verdict
that says what happened. A broken case is the case's fault, not the
adapter's, and never its healthy twin's.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from tests.hostile.cassettes import (
    ANSWER,
    binary_response_body,
    case_text,
    simple_request,
    write_case,
)
from tests.hostile.cli import error_line, toolwire
from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.errors import CorpusError
from toolwire.harness.sse import parse_sse

CORPUS = PROJECT_ROOT / "corpus"
WEATHER = "single-tool/weather-openai"
WEATHER_TWIN = "single-tool/weather-anthropic"
STREAM = "streaming/parallel-openai"
STREAM_TWIN = "streaming/parallel-anthropic"


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _copy_cases(root: Path, *case_ids: str) -> Path:
    for case_id in case_ids:
        target = root / f"{case_id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CORPUS / f"{case_id}.yaml", target)
    return root


def _edit_case(root: Path, case_id: str, change: Any) -> None:
    path = root / f"{case_id}.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), "utf-8")


# --- V: silent passes ------------------------------------------------------------------


@pytest.mark.parametrize("term", ["rule:", "rule:no.such-rule", "rule:schema.requst"])
def test_v1_a_rule_term_that_names_no_rule_is_a_usage_error(term: str) -> None:
    result = _invoke("run", "--select", f"{WEATHER},{term}")
    assert result.exit_code == 2
    assert f"{term} matches no rule" in result.stderr
    assert "PASS" not in result.stdout


def test_v1_a_near_miss_is_named() -> None:
    result = _invoke("run", "--select", "rule:schema.requst")
    assert "did you mean: schema.request" in result.stderr


def test_v2_a_rule_selection_that_judges_nothing_is_a_usage_error() -> None:
    # xml.* rules judge qwen-xml payloads only: an openai-chat case exercises none.
    result = _invoke("run", "--select", f"{WEATHER},rule:xml.*")
    assert result.exit_code == 2
    assert "rule:xml.* judged nothing" in result.stderr
    assert "PASS" not in result.stdout


def test_v2_a_rule_selection_that_judges_something_still_runs() -> None:
    result = _invoke("run", "--select", f"{WEATHER},rule:schema.request")
    assert result.exit_code == 0, result.output
    assert "pass" in result.stdout


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e10"])
def test_v3_a_timeout_that_is_no_timeout_is_a_usage_error(value: str) -> None:
    result = _invoke("run", "--select", WEATHER, "--timeout", value)
    assert result.exit_code == 2
    assert "--timeout" in result.stderr
    assert "between 0.01 and 604800" in result.stderr or "0.01" in result.stderr


def test_v3_the_cmd_adapter_timeout_variable_refuses_nan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLWIRE_CMD_TIMEOUT", "nan")
    result = _invoke("run", "--adapter", "cmd:true", "--select", WEATHER)
    assert result.exit_code == 2
    assert "TOOLWIRE_CMD_TIMEOUT='nan' is not a positive number" in result.stderr


def test_v4_a_linked_corpus_folder_is_refused_not_skipped(tmp_path: Path) -> None:
    root = _copy_cases(tmp_path / "corpus", WEATHER, WEATHER_TWIN)
    elsewhere = _copy_cases(tmp_path / "elsewhere", STREAM, STREAM_TWIN)
    (root / "streaming").symlink_to(elsewhere / "streaming", target_is_directory=True)
    result = toolwire("run", "--corpus", str(root))
    assert result.returncode == 2
    line = error_line(result)
    assert "streaming: is a link to a folder" in line
    assert "toolwire run:" not in result.stdout  # refused before anything was judged
    validated = toolwire("corpus", "validate", "--corpus", str(root))
    assert validated.returncode == 1
    assert "streaming: is a link to a folder" in validated.stdout


def test_v4_a_link_loop_is_refused_too(tmp_path: Path) -> None:
    root = _copy_cases(tmp_path / "corpus", WEATHER, WEATHER_TWIN)
    (root / "loop").symlink_to(root, target_is_directory=True)
    with pytest.raises(CorpusError, match="loop: is a link to a folder"):
        load_corpus(root)


def test_v5_an_unreadable_corpus_folder_is_refused_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Simulated: tests may run as root, for whom no folder is unreadable.
    # Whole twin groups (each case names its twins), so the lock is the only problem.
    groups = [
        f"{group}-{suffix}"
        for group in ("single-tool/weather", "streaming/parallel")
        for suffix in ("openai", "anthropic", "gemini", "responses")
    ]
    root = _copy_cases(tmp_path / "corpus", *groups)
    locked = root / "streaming"
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(CorpusError, match="streaming: cannot be read: Permission denied"):
        load_corpus(root)
    report = validate_corpus(root)
    assert [p.message for p in report.problems] == ["cannot be read: Permission denied"]
    assert report.problems[0].source.endswith("streaming")


def _gzipped_case(tmp_path: Path, answer: dict[str, Any]) -> Path:
    body = binary_response_body(gzip.compress(json.dumps(answer).encode()))
    headers = "Content-Type:\n      - application/json\n      Content-Encoding:\n      - gzip"
    text = case_text(WEATHER, simple_request(), response_body=body, response_headers=headers)
    return write_case(tmp_path, "gzipped", text)


def test_v7_lint_decodes_a_binary_response_instead_of_skipping_it(tmp_path: Path) -> None:
    assert toolwire("lint", str(_gzipped_case(tmp_path, ANSWER))).returncode == 0
    # The decoded response is judged: one with no message is refused, not skipped.
    broken = {**ANSWER, "choices": [{"index": 0, "message": None, "finish_reason": "stop"}]}
    result = toolwire("lint", str(_gzipped_case(tmp_path, broken)))
    assert result.returncode == 2
    assert "interaction 1 response: not a valid openai-chat response" in error_line(result)


def test_v7_lint_names_a_binary_response_it_cannot_decode(tmp_path: Path) -> None:
    body = binary_response_body(b"\xff\xfe\x00 not text")
    text = case_text(WEATHER, simple_request(), response_body=body)
    path = write_case(tmp_path, "binary", text)
    result = toolwire("lint", str(path))
    assert result.returncode == 2
    assert "interaction 1 response: the response body is binary, not UTF-8 text" in error_line(
        result
    )


# --- B: blame ----------------------------------------------------------------------------


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_b1_nan_in_a_corpus_body_is_the_case_not_the_adapter(tmp_path: Path, constant: str) -> None:
    request = json.dumps(simple_request()).replace('"m"', f'"m", "temperature": {constant}', 1)
    root = tmp_path / "corpus"
    text = case_text(WEATHER, {}).replace("body: |-\n      {}", f"body: |-\n      {request}")
    write_case(root, WEATHER, text)
    result = toolwire("run", "--corpus", str(root), "--format", "json")
    assert result.returncode == 3
    [error] = [v for v in json.loads(result.stdout)["verdicts"] if v["outcome"] == "error"]
    assert f"holds {constant}, which is not a JSON number" in error["message"]
    assert "the case cannot be read" in error["message"]
    assert "adapter" not in error["message"].split("the case cannot be read")[0]
    validated = toolwire("corpus", "validate", "--corpus", str(root))
    assert validated.returncode == 1
    assert f"holds {constant}, which is not a JSON number" in validated.stdout


def test_b1_nan_in_a_stream_event_is_the_case_not_the_adapter(tmp_path: Path) -> None:
    root = _copy_cases(tmp_path / "corpus", STREAM, STREAM_TWIN)

    def poison(document: dict[str, Any]) -> None:
        for interaction in document["interactions"]:
            body = interaction["response"]["body"]
            body["string"] = body["string"].replace('"index":0', '"index":0,"logprob":NaN', 1)

    _edit_case(root, STREAM, poison)
    report = validate_corpus(root)
    assert any("response event" in str(p) and "holds NaN" in str(p) for p in report.problems)


def test_b2_an_unreadable_twin_leaves_the_healthy_case_judged(tmp_path: Path) -> None:
    root = _copy_cases(tmp_path / "corpus", WEATHER, WEATHER_TWIN)

    def break_request(document: dict[str, Any]) -> None:
        document["interactions"][0]["request"]["body"] = "{this is not json"

    _edit_case(root, WEATHER_TWIN, break_request)
    result = toolwire("run", "--corpus", str(root), "--format", "json")
    assert result.returncode == 3  # the broken case is an error: it cannot be judged
    document = json.loads(result.stdout)
    errors = {v["case"] for v in document["verdicts"] if v["outcome"] == "error"}
    assert errors == {WEATHER_TWIN}
    healthy = [v for v in document["verdicts"] if v["case"] == WEATHER]
    assert healthy and all(v["outcome"] == "pass" for v in healthy)
    summary = toolwire("run", "--corpus", str(root))
    assert "BROKEN" not in summary.stdout + summary.stderr
    assert "ERROR: exit 3" in summary.stdout


# --- SSE byte order mark ----------------------------------------------------------------


def test_s6_a_byte_order_mark_before_a_stream_is_ignored() -> None:
    text = 'data: {"a": 1}\n\ndata: [DONE]\n\n'
    assert parse_sse("\ufeff" + text) == parse_sse(text)
    assert len(parse_sse("\ufeff" + text)) == 2


def test_s6_a_case_whose_stream_starts_with_a_bom_runs_clean(tmp_path: Path) -> None:
    root = _copy_cases(tmp_path / "corpus", STREAM, STREAM_TWIN)

    def add_bom(document: dict[str, Any]) -> None:
        body = document["interactions"][0]["response"]["body"]
        body["string"] = "\ufeff" + body["string"]

    _edit_case(root, STREAM, add_bom)
    result = _invoke("run", "--corpus", str(root), "--select", STREAM)
    assert result.exit_code == 0, result.output
    assert "PASS: exit 0" in result.stdout
