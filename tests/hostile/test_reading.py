"""Hostile files through every reader: one line and the documented exit code,
never a traceback (issue 16 item 8; docs/hostile-input.md, "Reading hostile
files", rows N1-N12).

Most commands run in-process (``invoke`` fails the test with the traceback
if anything but a clean exit escapes); the ones about the process itself
(an adapter interrupting its own import, a 10 GB allocation) run the real
command in a subprocess.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.hostile import hostile_files as files
from tests.hostile.cli import error_line, toolwire
from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.cli.main import cli
from toolwire.harness.errors import CorpusError

# What `corpus add` exits with when it refuses a cassette (CorpusError's code).
ADD_REFUSED = CorpusError.exit_code


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # what a user would have seen as a traceback
    return result


def one_line(result: Result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("toolwire: error:")]
    assert len(lines) == 1, result.output
    return lines[0]


def corpus_with(tmp_path: Path, text: str, case_id: str = "hostile") -> Path:
    root = tmp_path / "corpus"
    root.mkdir(exist_ok=True)
    (root / f"{case_id}.yaml").write_text(text, encoding="utf-8")
    return root


def cassette(tmp_path: Path, text: str, name: str = "recorded.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# N1-N2: lint on cassettes of unexpected shape, and on a one-line payload.


@pytest.mark.parametrize("name", list(files.shapes()))
def test_n1_lint_names_a_cassette_part_of_unexpected_shape(tmp_path: Path, name: str) -> None:
    result = invoke("lint", str(cassette(tmp_path, files.shapes()[name])))
    assert result.exit_code == 2
    line = one_line(result)
    assert "interaction 1" in line or "toolwire: block" in line or "toolwire.profile" in line, line


def test_n1_lint_reads_a_plain_string_body_as_the_body(tmp_path: Path) -> None:
    text = files.changed(files.RESPONSE_HEADERS, files.RESPONSE_HEADERS.replace("string:", ""))
    text = text.replace("    body:\n       |-", "    body: |-")
    result = invoke("lint", "--format", "json", str(cassette(tmp_path, text)))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["violations"] == []
    broken = text.replace('"finish_reason": "stop"', '"finish_reason": 7')
    judged = invoke("lint", str(cassette(tmp_path, broken, "broken.yaml")))  # read, not skipped
    assert judged.exit_code == 2
    assert "interaction 1 response: not a valid openai-chat response" in one_line(judged)


@pytest.mark.parametrize("text", ['{"choices": null}', '{"messages": null}', '{"choices": [1]}'])
def test_n2_lint_on_a_one_line_payload_under_dialect_detection(tmp_path: Path, text: str) -> None:
    result = invoke("lint", str(cassette(tmp_path, text, "payload.json")))
    assert result.exit_code in (1, 2), result.output
    if result.exit_code == 2:
        assert "not a valid" in one_line(result)


# N3-N4: an integer of more than 4,300 digits, in a body and in the YAML.


def test_n3_a_huge_integer_in_a_body_is_one_line_everywhere(tmp_path: Path) -> None:
    text = files.big_integer_body()
    root = corpus_with(tmp_path, text)
    digits = "an integer has more than 4,300 digits"

    validated = invoke("corpus", "validate", "--corpus", str(root))
    assert validated.exit_code == 1 and digits in validated.stdout, validated.output

    run = invoke("run", "--adapter", "reference", "--corpus", str(root), "--format", "json")
    assert run.exit_code == 3
    verdicts = json.loads(run.stdout)["verdicts"]
    assert verdicts and all(digits in v["message"] for v in verdicts)

    linted = invoke("lint", str(root / "hostile.yaml"))
    assert linted.exit_code == 2 and digits in one_line(linted)
    payload = cassette(
        tmp_path, '{"model": "m", "max_tokens": ' + files.BIG_INTEGER + "}", "p.json"
    )
    assert digits in one_line(invoke("lint", str(payload)))

    added = invoke("corpus", "add", str(root / "hostile.yaml"), "--corpus", str(tmp_path / "new"))
    assert added.exit_code == ADD_REFUSED and digits in one_line(added)


def test_n3_report_diff_and_the_protocol_check_refuse_a_huge_integer(tmp_path: Path) -> None:
    results = cassette(tmp_path, '{"format": ' + files.BIG_INTEGER + "}", "results.json")
    for args in (("report", "--format", "md"), ("diff", str(results))):
        result = invoke(*args, str(results))
        assert result.exit_code == 2
        assert "more than 4,300 digits" in one_line(result)
    transcript = cassette(tmp_path, '{"type": ' + files.BIG_INTEGER + "}\n", "t.jsonl")
    checked = invoke("adapter-protocol", "--validate", str(transcript))
    assert checked.exit_code != 0 and "more than 4,300 digits" in checked.output


def test_n4_a_yaml_value_that_cannot_be_built_is_one_line(tmp_path: Path) -> None:
    for value, said in (
        (files.BIG_INTEGER, "more than 4,300 digits"),
        ("2024-13-45", "month"),
        ("!!timestamp soon", "does not fit its tag"),
    ):
        text = files.changed("  expect: {}", f"  expect: {{n: {value}}}")
        root = corpus_with(tmp_path, text)
        validated = invoke("corpus", "validate", "--corpus", str(root))
        assert validated.exit_code == 1 and said in validated.stdout, validated.output
        linted = invoke("lint", str(root / "hostile.yaml"))
        assert linted.exit_code == 2 and said in one_line(linted)
        added = invoke("corpus", "add", str(root / "hostile.yaml"), "--corpus", str(tmp_path / "n"))
        assert added.exit_code == ADD_REFUSED and said in one_line(added)


# N5-N8: corpus add on cassettes vcrpy can write.


@pytest.mark.parametrize("value", ["null", "-1", "10000000000"])
def test_n5_a_request_body_string_that_is_not_text_is_refused(tmp_path: Path, value: str) -> None:
    path = cassette(tmp_path, files.request_body_string(value))

    # The 10**10 case allocated 10 GB: bounded here, so a regression fails, not the machine.
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolwire.harness",
            "corpus",
            "add",
            str(path),
            "--corpus",
            str(tmp_path / "c"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=PROJECT_ROOT,
        preexec_fn=limit_memory,
    )
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == ADD_REFUSED
    line = error_line(result)
    assert "request.body.string must be text" in line or "request body: is empty" in line


def test_n6_an_empty_streamed_body_is_judged_not_a_crash(tmp_path: Path) -> None:
    path = cassette(tmp_path, files.empty_streamed_body())
    result = invoke("corpus", "add", str(path), "--corpus", str(tmp_path / "c"))
    assert result.exit_code == ADD_REFUSED
    assert "stream" in one_line(result)
    negative = invoke("corpus", "add", str(path), "--corpus", str(tmp_path / "c"), "--negative")
    assert negative.exit_code == 0, negative.output


def test_n7_a_date_in_parsed_body_is_one_line(tmp_path: Path) -> None:
    result = invoke("corpus", "add", str(cassette(tmp_path, files.parsed_body_with_date())))
    assert result.exit_code in (ADD_REFUSED, 2)
    assert "parsed_body holds a YAML date" in one_line(result)


def test_n8_a_deeply_nested_json_cassette_is_one_line(tmp_path: Path) -> None:
    path = cassette(tmp_path, files.deeply_nested_json_cassette(), "deep.json")
    result = invoke("corpus", "add", str(path), "--corpus", str(tmp_path / "c"))
    assert result.exit_code == ADD_REFUSED
    assert "nested deeper than toolwire can read" in one_line(result)


# N9: YAML alias bombs anywhere in a case, in every reader.


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("bomb_in_expect", "expand to more than 100,000 values"),
        ("bomb_in_header", "expand to more than 100,000 values"),
        ("recursive_alias", "an alias refers to the node that holds it"),
    ],
)
def test_n9_an_alias_bomb_is_refused_by_every_reader(tmp_path: Path, name: str, said: str) -> None:
    text = getattr(files, name)()
    root = corpus_with(tmp_path, text)
    path = str(root / "hostile.yaml")
    validated = invoke("corpus", "validate", "--corpus", str(root))
    assert validated.exit_code == 1 and said in validated.stdout
    run = invoke("run", "--adapter", "reference", "--corpus", str(root))
    assert run.exit_code == 2 and said in one_line(run)
    linted = invoke("lint", path)
    assert linted.exit_code == 2 and said in one_line(linted)
    added = invoke("corpus", "add", path, "--corpus", str(tmp_path / "c"))
    assert added.exit_code == ADD_REFUSED and said in one_line(added)


def test_n9_a_small_alias_as_vcrpy_writes_it_still_loads(tmp_path: Path) -> None:
    root = corpus_with(tmp_path, files.shared_header_alias())
    result = invoke("corpus", "validate", "--corpus", str(root))
    assert result.exit_code == 0, result.output


# N10: an adapter raising KeyboardInterrupt or a BaseException while imported.


@pytest.mark.parametrize("module", ["interrupting_import", "base_exception_import"])
def test_n10_an_adapter_interrupting_its_import_is_a_load_error(module: str) -> None:
    result = toolwire(
        "run", "--adapter", f"tests.hostile.{module}:Adapter", "--select", "*/nothing"
    )
    assert result.returncode == 2
    line = error_line(result)
    assert f"importing 'tests.hostile.{module}' failed" in line


# N11: report, diff and adapter-protocol --validate on deep or non-UTF-8 input.


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"]" * 100_000, b'{"format": "\xe9"}'])
def test_n11_report_diff_and_protocol_check_refuse_unreadable_input(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(content)
    for args in (("report", "--format", "md"), ("diff", str(path))):
        result = invoke(*args, str(path))
        assert result.exit_code == 2, result.output
        assert "nested deeper" in one_line(result) or "not UTF-8" in one_line(result)
    checked = invoke("adapter-protocol", "--validate", str(path))
    assert checked.exit_code != 0
    assert "nested deeper" in checked.output or "not UTF-8" in checked.output


# N12: a case file that is a link looping onto itself.


def test_n12_a_link_loop_in_the_corpus_is_one_line(tmp_path: Path) -> None:
    root = corpus_with(tmp_path, files.valid_case())
    (root / "loop.yaml").symlink_to(root / "loop.yaml")
    validated = invoke("corpus", "validate", "--corpus", str(root))
    assert validated.exit_code == 1
    assert "loop.yaml: cannot be read" in validated.stdout
    run = invoke("run", "--adapter", "reference", "--corpus", str(root))
    assert run.exit_code == 2 and "loop.yaml" in one_line(run)


# N3 and N9 through the pytest plugin.


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (files.big_integer_body(), "an integer has more than 4,300 digits"),
        (files.bomb_in_expect(), "expand to more than 100,000 values"),
    ],
)
def test_n3_n9_the_pytest_plugin_reports_them_too(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, text: str, said: str
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(PROJECT_ROOT))
    root = corpus_with(pytester.path, text)
    result = pytester.runpytest_subprocess(
        "--toolwire-adapter", "reference", "--toolwire-corpus", str(root), "-p", "no:randomly"
    )
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output
    assert said in output
    assert result.ret != 0


# N14: a request URI that urllib cannot take apart (found by the cassette fuzz target).


@pytest.mark.parametrize("uri", ["https://[oops/v1/chat/completions", "https://h:99999/v1/x"])
def test_n14_a_uri_urllib_cannot_split_is_one_line(tmp_path: Path, uri: str) -> None:
    text = files.changed("uri: https://api.openai.com/v1/chat/completions", f'uri: "{uri}"')
    root = corpus_with(tmp_path, text)
    validated = invoke("corpus", "validate", "--corpus", str(root))
    assert validated.exit_code == 1
    assert "request.uri must be an absolute http(s) URL" in validated.stdout
    added = invoke("corpus", "add", str(root / "hostile.yaml"), "--corpus", str(tmp_path / "c"))
    assert added.exit_code == ADD_REFUSED
    assert "request.uri must be an absolute http(s) URL" in one_line(added)
    linted = invoke("lint", str(root / "hostile.yaml"))  # the dialect comes from the body
    assert linted.exit_code == 0, linted.output


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('{"model": "m", "max_tokens": ' + files.BIG_INTEGER + "}", "more than 4,300 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper than toolwire can read"),
    ],
)
def test_n3_record_refuses_a_request_file_it_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, said: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    request = cassette(tmp_path, body, "request.json")
    result = invoke(
        "record",
        "--base-url",
        "http://127.0.0.1:9/v1",  # never reached: the request file is read first
        "--dialect",
        "openai-chat",
        "--request",
        str(request),
        "--corpus",
        str(tmp_path / "corpus"),
    )
    assert result.exit_code == 2
    assert said in one_line(result)


# N15: an adapter returning an integer Python will not write out.


def test_n15_an_output_integer_past_the_digit_limit_is_named_by_its_path(tmp_path: Path) -> None:
    root = corpus_with(tmp_path, files.valid_case())
    adapter = "tests.hostile.big_integer_adapter:BigIntegerOutput"
    result = invoke("run", "--adapter", adapter, "--corpus", str(root), "--format", "json")
    assert result.exit_code == 3
    messages = [v["message"] for v in json.loads(result.stdout)["verdicts"]]
    assert any("$.max_tokens is an integer of more than 4,300 digits" in m for m in messages)
