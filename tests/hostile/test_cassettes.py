"""Hostile case files through the real `toolwire run` (docs/hostile-input.md, rows C1-C13).

A file that is not a loadable cassette stops the run before it starts, with
one line and exit 2; a cassette whose bodies do not parse gives that case an
``error`` verdict (exit 3) while the others are judged; large but valid
cassettes run to the end. Never a traceback.
"""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

from tests.hostile.cassettes import (
    ANSWER,
    binary_response_body,
    case_text,
    gzip_response_body,
    large_body_request,
    long_conversation,
    simple_request,
    write_case,
)
from tests.hostile.cli import ADAPTERS, error_line, toolwire
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import load_case, load_corpus
from toolwire.harness.engine.gc_threshold import fewer_gc_passes
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.errors import CorpusError
from toolwire.harness.payloads import case_payloads

CASE_ID = "single-tool/hostile"


def _corpus(tmp_path: Path, text: str, case_id: str = CASE_ID) -> Path:
    root = tmp_path / "corpus"
    write_case(root, case_id, text)
    return root


def _run(root: Path, *args: str) -> tuple[int, str, str]:
    result = toolwire("run", "--corpus", str(root), *args)
    return result.returncode, result.stdout, result.stderr


def test_c1_not_yaml_is_a_usage_error_naming_the_line(tmp_path: Path) -> None:
    root = _corpus(tmp_path, "version: 1\ntoolwire:\n  id: [unclosed\ninteractions: []\n")
    result = toolwire("run", "--corpus", str(root))
    assert result.returncode == 2
    line = error_line(result)
    assert "hostile.yaml:4: invalid YAML" in line
    assert "toolwire corpus validate" in line


def test_c2_a_binary_file_is_a_usage_error(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "single-tool").mkdir(parents=True)
    (root / "single-tool" / "hostile.yaml").write_bytes(gzip.compress(b"version: 1\n" * 100))
    result = toolwire("run", "--corpus", str(root))
    assert result.returncode == 2
    assert "is not UTF-8 text (save it as UTF-8)" in error_line(result)


def test_c3_yaml_that_is_not_a_cassette_is_a_usage_error(tmp_path: Path) -> None:
    result = toolwire("run", "--corpus", str(_corpus(tmp_path, "- just\n- a list\n")))
    assert result.returncode == 2
    assert "is not a cassette" in error_line(result)


def test_c4_a_file_cut_inside_a_body_errors_that_case_and_judges_the_others(
    tmp_path: Path,
) -> None:
    whole = case_text(CASE_ID, simple_request())
    cut = whole[: whole.index('"finish_reason"')]  # the response JSON ends mid-object
    root = _corpus(tmp_path, cut)
    write_case(root, "single-tool/intact", case_text("single-tool/intact", simple_request()))
    code, stdout, _ = _run(root, "--adapter", f"{ADAPTERS}:PassThrough", "--format", "json")
    assert code == 3
    document = json.loads(stdout)
    by_case = {(v["case"], v["outcome"]) for v in document["verdicts"]}
    assert (CASE_ID, "error") in by_case
    assert ("single-tool/intact", "pass") in by_case
    broken = next(v for v in document["verdicts"] if v["case"] == CASE_ID)
    assert "the case cannot be read" in broken["message"]
    assert "is not valid JSON" in broken["message"]


def test_c4_every_truncation_loads_cleanly_or_fails_with_one_corpus_error(
    tmp_path: Path,
) -> None:
    whole = case_text(CASE_ID, simple_request())
    adapter = load_adapter(f"{ADAPTERS}:PassThrough")
    root = tmp_path / "corpus"
    outcomes: dict[str, int] = {"refused": 0, "judged": 0}
    for end in range(0, len(whole), max(len(whole) // 80, 1)):
        path = write_case(root, CASE_ID, whole[:end])
        try:
            case = load_case(path, root)
        except CorpusError as error:
            assert "\n" not in str(error)
            outcomes["refused"] += 1
            continue
        verdicts = run_case(case, adapter, RunOptions(timeout=5))
        assert verdicts, f"no verdict for a file cut at {end}"
        outcomes["judged"] += 1
    assert outcomes["refused"] > 40
    assert outcomes["judged"] > 0  # cuts inside the last body still load


def test_c5_another_cassette_version_is_refused_with_the_way_to_migrate(tmp_path: Path) -> None:
    result = toolwire(
        "run", "--corpus", str(_corpus(tmp_path, case_text(CASE_ID, simple_request(), version="2")))
    )
    assert result.returncode == 2
    line = error_line(result)
    assert "cassette version 2 is not supported" in line
    assert "migrate the file to the layout in docs/corpus-format.md" in line


def test_c5_a_newer_metadata_format_is_refused(tmp_path: Path) -> None:
    text = case_text(CASE_ID, simple_request(), metadata_format="2")
    result = toolwire("run", "--corpus", str(_corpus(tmp_path, text)))
    assert result.returncode == 2
    assert "toolwire.format 2 is newer than this toolwire reads (1)" in error_line(result)


def test_c6_a_binary_body_is_refused_and_the_importer_reads_it(tmp_path: Path) -> None:
    body = binary_response_body(json.dumps(ANSWER).encode())
    text = case_text(CASE_ID, simple_request(), response_body=body)
    result = toolwire("run", "--corpus", str(_corpus(tmp_path, text)))
    assert result.returncode == 2
    assert "interactions[0].response.body.string must be text" in error_line(result)
    _import_then_run(tmp_path, text)


def test_c7_a_gzip_body_is_refused_and_the_importer_decodes_it(tmp_path: Path) -> None:
    headers = "Content-Type:\n      - application/json\n      Content-Encoding:\n      - gzip"
    text = case_text(
        CASE_ID, simple_request(), response_body=gzip_response_body(), response_headers=headers
    )
    result = toolwire("run", "--corpus", str(_corpus(tmp_path, text)))
    assert result.returncode == 2
    assert "response.body.string must be text" in error_line(result)
    imported = _import_then_run(tmp_path, text)
    assert "Content-Encoding" not in imported  # stored decoded, so replay needs no gzip


def _import_then_run(tmp_path: Path, text: str) -> str:
    cassette = tmp_path / "recorded.yaml"
    cassette.write_text(text, encoding="utf-8")
    target = tmp_path / "imported"
    added = toolwire("corpus", "add", str(cassette), "--corpus", str(target), "--id", CASE_ID)
    assert added.returncode == 0, added.stderr
    code, stdout, _ = _run(target, "--adapter", f"{ADAPTERS}:PassThrough")
    assert code == 0, stdout
    return (target / f"{CASE_ID}.yaml").read_text(encoding="utf-8")


def test_c8_ten_megabyte_bodies_run_to_the_end(tmp_path: Path) -> None:
    request = large_body_request(10_000_000)
    answer = json.loads(json.dumps(ANSWER))
    answer["choices"][0]["message"]["content"] = "y" * 10_000_000
    root = _corpus(tmp_path, case_text(CASE_ID, request, answer))
    assert (root / f"{CASE_ID}.yaml").stat().st_size > 20_000_000
    started = time.monotonic()
    code, stdout, _ = _run(root, "--adapter", "reference")
    elapsed = time.monotonic() - started
    assert code == 0, stdout
    assert "PASS: exit 0" in stdout
    assert elapsed < 60, f"{elapsed:.1f} s"  # about 3 s on an idle 2-core machine


def test_c9_a_hundred_thousand_turns_load_and_parse_in_seconds(tmp_path: Path) -> None:
    root = _corpus(tmp_path, case_text(CASE_ID, long_conversation(100_000)))
    started = time.monotonic()
    with fewer_gc_passes():  # as in a run
        corpus = load_corpus(root)
        case = corpus[CASE_ID]
        requests = case_payloads(case, "request")
        responses = case_payloads(case, "response")
    elapsed = time.monotonic() - started
    conversation = requests[0].under_test.parsed
    assert len(conversation.turns) == 100_000  # type: ignore[union-attr]
    assert len(responses) == 1
    assert elapsed < 30, f"{elapsed:.1f} s"  # about 3 s on an idle 2-core machine


def test_c10_a_yaml_alias_bomb_is_refused_at_once(tmp_path: Path) -> None:
    levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        levels.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
    root = _corpus(tmp_path, "version: 1\n" + "\n".join(levels) + "\n")
    started = time.monotonic()
    result = toolwire("run", "--corpus", str(root))
    assert result.returncode == 2
    assert "its aliases (*name) expand to more than 100,000 values" in error_line(result)
    assert time.monotonic() - started < 30


def test_c11_deep_nesting_is_refused_not_a_crash(tmp_path: Path) -> None:
    # libyaml alone crashes the interpreter (SIGSEGV) on this file.
    root = _corpus(tmp_path, "version: 1\ninteractions: " + "[" * 100_000 + "]" * 100_000 + "\n")
    result = toolwire("run", "--corpus", str(root))
    assert result.returncode == 2
    assert "nests deeper than toolwire can read" in error_line(result)


def test_c12_a_deeply_nested_json_body_errors_that_case(tmp_path: Path) -> None:
    whole = case_text(CASE_ID, simple_request())
    start = whole.index("    body: |-\n") + len("    body: |-\n")
    end = whole.index("  response:")
    deep = "      " + "[" * 100_000 + "]" * 100_000 + "\n"
    root = _corpus(tmp_path, whole[:start] + deep + whole[end:])
    code, stdout, _ = _run(root, "--adapter", f"{ADAPTERS}:PassThrough", "--format", "json")
    assert code == 3
    verdict = json.loads(stdout)["verdicts"][0]
    assert verdict["outcome"] == "error"
    assert "the case cannot be read" in verdict["message"]
    assert "nested deeper than toolwire can read" in verdict["message"]


def test_c13_a_control_character_is_refused_with_its_offset(tmp_path: Path) -> None:
    text = case_text(CASE_ID, simple_request()).replace("generated", "gener\x00ated")
    result = toolwire("run", "--corpus", str(_corpus(tmp_path, text)))
    assert result.returncode == 2
    line = error_line(result)
    assert "invalid YAML: character U+0000 at offset" in line
    assert "remove control characters" in line
