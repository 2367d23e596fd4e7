"""`corpus add` and `corpus validate` lint what the corpus keeps, and ids stay readable."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.corpus.test_import import call, openai_answer, vcr_interaction, write_cassette
from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.case_ids import readable_id, slugify
from toolwire.harness.corpus.importer import AddOptions, import_cassette
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.errors import CorpusError

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
ASKED = {"role": "user", "content": "Weather in Paris?"}
CALLED = {"role": "assistant", "content": None, "tool_calls": [call("call_P4r1s", "Paris")]}


def _final_answer(text: str) -> dict[str, Any]:
    answer = openai_answer()
    answer["choices"][0]["message"] = {"role": "assistant", "content": text}
    answer["choices"][0]["finish_reason"] = "stop"
    return answer


def _loop(result_id: str, question: str = "Weather in Paris?") -> Path:
    """A two-step tool loop whose second request answers ``result_id``."""
    asked = {"role": "user", "content": question}
    first = {"model": "gpt-4o", "messages": [asked], "tools": [TOOL]}
    second = {
        "model": "gpt-4o",
        "messages": [
            asked,
            CALLED,
            {"role": "tool", "tool_call_id": result_id, "content": "18 C"},
        ],
        "tools": [TOOL],
    }
    return write_cassette(
        Path("."),
        "test_weather_loop",
        vcr_interaction(first, openai_answer(call("call_P4r1s", "Paris"))),
        vcr_interaction(second, _final_answer("18 C in Paris.")),
    )


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_good_loop_is_added(workdir: Path) -> None:
    added = import_cassette(_loop("call_P4r1s"), AddOptions(workdir / "corpus"))
    assert added.case_id == "single-tool/test-weather-loop"
    assert validate_corpus(workdir / "corpus").ok


def test_an_unknown_tool_call_id_is_refused_with_its_verdicts(workdir: Path) -> None:
    with pytest.raises(CorpusError) as caught:
        import_cassette(_loop("call_unknown"), AddOptions(workdir / "corpus"))
    message = str(caught.value)
    assert "the recording breaks" in message
    assert "MUST pairing.orphan_result (interaction 2 request at messages[2])" in message
    assert "--negative" in message
    assert not (workdir / "corpus").exists() or not list((workdir / "corpus").rglob("*.yaml"))


def test_with_negative_it_is_kept_expecting_exactly_what_lint_finds(workdir: Path) -> None:
    added = import_cassette(_loop("call_unknown"), AddOptions(workdir / "corpus", negative=True))
    case = load_case(added.path, workdir / "corpus")
    assert case.has_feature("negative")
    assert "pairing.orphan_result" in case.expect.violations
    assert validate_corpus(workdir / "corpus").ok


def test_negative_on_a_recording_that_breaks_nothing_is_refused(workdir: Path) -> None:
    with pytest.raises(CorpusError, match="breaks no rule"):
        import_cassette(_loop("call_P4r1s"), AddOptions(workdir / "corpus", negative=True))


def test_a_client_that_dropped_a_text_block_on_replay_is_refused(workdir: Path) -> None:
    said = {**CALLED, "content": "Let me check."}
    first = {"model": "gpt-4o", "messages": [ASKED], "tools": [TOOL]}
    second = {
        "model": "gpt-4o",
        "messages": [
            ASKED,
            CALLED,
            {"role": "tool", "tool_call_id": "call_P4r1s", "content": "18"},
        ],
        "tools": [TOOL],
    }
    answer = openai_answer(call("call_P4r1s", "Paris"), content=said["content"])
    cassette = write_cassette(
        workdir,
        "test_replay",
        vcr_interaction(first, answer),
        vcr_interaction(second, _final_answer("18 C.")),
    )
    with pytest.raises(CorpusError, match=r"MUST replay\.assistant_altered"):
        import_cassette(cassette, AddOptions(workdir / "corpus"))


def test_an_invalid_role_is_refused(workdir: Path) -> None:
    request = {"model": "gpt-4o", "messages": [{"role": "robot", "content": "hi"}], "tools": [TOOL]}
    cassette = write_cassette(
        workdir, "test_role", vcr_interaction(request, openai_answer(call("call_1", "Rome")))
    )
    with pytest.raises(CorpusError, match=r"MUST schema\.request"):
        import_cassette(cassette, AddOptions(workdir / "corpus"))


def test_the_cli_flag_keeps_a_negative_case(workdir: Path) -> None:
    cassette = _loop("call_unknown")
    refused = CliRunner().invoke(cli, ["corpus", "add", str(cassette), "--corpus", "corpus"])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "pairing.orphan_result" in refused.output
    kept = CliRunner().invoke(
        cli, ["corpus", "add", str(cassette), "--corpus", "corpus", "--negative"]
    )
    assert kept.exit_code == 0, kept.output
    assert "negative" in kept.output


# --- corpus validate lints what it holds ---------------------------------------


def _write_case(root: Path, relative: str, document: dict[str, Any]) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def test_validate_reports_a_kept_case_that_breaks_a_must_rule(workdir: Path) -> None:
    root = workdir / "corpus"
    added = import_cassette(_loop("call_P4r1s"), AddOptions(root))
    document = yaml.safe_load(added.path.read_text(encoding="utf-8"))
    body = json.loads(document["interactions"][1]["request"]["body"])
    body["messages"][2]["tool_call_id"] = "call_elsewhere"
    document["interactions"][1]["request"]["body"] = json.dumps(body)
    _write_case(root, "single-tool/test-weather-loop.yaml", document)
    problems = [str(p) for p in validate_corpus(root).problems]
    assert len(problems) == 1
    assert "the recording breaks 2 MUST rules: MUST pairing.orphan_result" in problems[0]
    assert "MUST pairing.unanswered_call" in problems[0]  # the call it should answer
    # Declared as negative with the right code, the same file is valid...
    negative = copy.deepcopy(document)
    negative["toolwire"]["features"].append("negative")
    found = ["pairing.orphan_result", "pairing.unanswered_call"]
    negative["toolwire"]["expect"] = {"violations": found}
    _write_case(root, "single-tool/test-weather-loop.yaml", negative)
    assert validate_corpus(root).ok
    # ...and with a code lint does not find, it is not.
    negative["toolwire"]["expect"] = {"violations": ["pairing.duplicate_result", found[1]]}
    _write_case(root, "single-tool/test-weather-loop.yaml", negative)
    [problem] = [str(p) for p in validate_corpus(root).problems]
    assert "declared but not found: pairing.duplicate_result" in problem
    assert "found but not declared: pairing.orphan_result" in problem


# --- readable ids ----------------------------------------------------------------


def test_a_long_slug_is_cut_after_a_whole_word() -> None:
    slug = slugify(
        "test anthropic streaming with parallel tool calls and extended thinking enabled"
    )
    assert len(slug) <= 60
    assert slug == "test-anthropic-streaming-with-parallel-tool-calls-and"
    assert slugify("x" * 80) == "x" * 60  # one word longer than the limit is cut


def test_a_different_recording_under_a_taken_slug_gets_a_word_not_a_number() -> None:
    taken = {"parallel/test-weather"}
    words = ("openai-chat", "gpt-4o-mini", "get_weather")
    assert readable_id("parallel", "test-weather", words, taken.__contains__, "a1b2c3") == (
        "parallel/test-weather-openai-chat"
    )
    taken.add("parallel/test-weather-openai-chat")
    assert readable_id("parallel", "test-weather", words, taken.__contains__, "a1b2c3") == (
        "parallel/test-weather-gpt-4o-mini"
    )
    taken |= {"parallel/test-weather-gpt-4o-mini", "parallel/test-weather-openai-chat-gpt-4o-mini"}
    assert readable_id("parallel", "test-weather", words, taken.__contains__, "a1b2c3") == (
        "parallel/test-weather-get-weather"
    )
    long = "a-very-long-recording-name-that-fills-almost-all-of-the-room-x"
    chosen = readable_id(
        "parallel", slugify(long), words, {f"parallel/{slugify(long)}"}.__contains__, "f"
    )
    assert chosen.endswith("-openai-chat") and len(chosen.split("/")[1]) <= 60


def test_two_different_recordings_with_one_name_both_stay_readable(workdir: Path) -> None:
    options = AddOptions(workdir / "corpus")
    first = import_cassette(_loop("call_P4r1s"), options)
    other = _loop("call_P4r1s", question="Weather in Paris today?")
    second = import_cassette(other, options)
    assert first.case_id == "single-tool/test-weather-loop"
    assert second.case_id == "single-tool/test-weather-loop-openai-chat"
    assert validate_corpus(workdir / "corpus").ok
