from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from tests.corpus.factory import (
    OPENAI_RESPONSE,
    OPENAI_STREAM,
    interaction,
    make_case,
    mutated,
    twin_pair,
    write_case_file,
)
from tests.corpus.fake_codec import install_fake_codecs
from toolwire.conformance.profiles import PROFILES
from toolwire.harness.cli.main import cli

OPENAI_KEY = "sk-" + "proj-" + "Xy9_Zw8-" * 6 + "QrS7tUv6"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    install_fake_codecs(monkeypatch)
    folder = tmp_path / "corpus"
    folder.mkdir()
    return folder


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_toolwire_help() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "Conformance harness for LLM tool-calling wire formats." in result.output
    assert "corpus" in result.output


def test_corpus_help() -> None:
    result = run("corpus", "--help")
    assert result.exit_code == 0
    section = result.output.split("Commands:", 1)[1]
    assert [line.split()[0] for line in section.strip().splitlines()] == [
        "add",
        "list",
        "show",
        "validate",
    ]


def _streaming_case(root: Path) -> None:
    document = make_case("streaming/hello", features=["streaming", "mixed-text"])
    document["interactions"] = [interaction({"messages": []}, OPENAI_STREAM, stream=True)]
    write_case_file(root, "streaming/hello", document)


def test_list_text(root: Path) -> None:
    twin_pair(root)
    _streaming_case(root)
    result = run("corpus", "list", "--corpus", "corpus", "--no-coverage")
    assert result.exit_code == 0
    assert result.output == (
        "ID                             DIALECT             FEATURES              "
        "KINDS             PROVENANCE\n"
        "single-tool/weather-anthropic  anthropic-messages  single-tool           "
        "request,response  documented\n"
        "single-tool/weather-openai     openai-chat         single-tool           "
        "request,response  documented\n"
        "streaming/hello                openai-chat         streaming,mixed-text  "
        "request,stream    documented\n"
        "\n"
        "3 cases in corpus\n"
        "by feature: single-tool 2, mixed-text 1, streaming 1\n"
        "by dialect: openai-chat 2, anthropic-messages 1\n"
    )


def test_list_json(root: Path) -> None:
    twin_pair(root)
    _streaming_case(root)
    result = run("corpus", "list", "--corpus", "corpus", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["total"] == 3
    assert data["corpus"] == "corpus"
    assert data["cases"][2] == {
        "id": "streaming/hello",
        "dialect": "openai-chat",
        "profile": "openai",
        "features": ["streaming", "mixed-text"],
        "kinds": ["request", "stream"],
        "interactions": 1,
        "provenance": "documented",
    }
    assert data["features"] == {"single-tool": 2, "mixed-text": 1, "streaming": 1}
    assert data["dialects"] == {"openai-chat": 2, "anthropic-messages": 1}


def test_default_corpus_is_the_bundled_one(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    twin_pair(root)
    monkeypatch.setattr("toolwire.harness.cli.corpus_cmd.bundled_corpus_root", lambda: root)
    result = run("corpus", "list", "--format", "json")
    assert result.exit_code == 0
    assert [case["id"] for case in json.loads(result.output)["cases"]] == [
        "single-tool/weather-anthropic",
        "single-tool/weather-openai",
    ]


def test_show_yaml(root: Path) -> None:
    twin_pair(root)
    result = run("corpus", "show", "single-tool/weather-openai", "--corpus", "corpus")
    assert result.exit_code == 0
    data = yaml.safe_load(result.output)
    assert data["id"] == "single-tool/weather-openai"
    assert data["twins"] == {"anthropic-messages": "single-tool/weather-anthropic"}
    assert data["source"] == "corpus/single-tool/weather-openai.yaml"
    assert data["interactions"] == [
        {
            "index": 0,
            "request": "POST https://api.openai.com/v1/chat/completions",
            "request_body": {
                "model": "gpt-4o-mini",
                "tools": ["get_weather"],
                "messages": ['user → text "Weather in Paris?"'],
            },
            "status": 200,
            "kind": "response",
            "response_body": {
                "choices": 1,
                "finish_reason": "tool_calls",
                "message": "assistant → content null, tool_call get_weather",
            },
        }
    ]


def test_show_json_anthropic_and_stream(root: Path) -> None:
    twin_pair(root)
    _streaming_case(root)
    result = run(
        "corpus", "show", "single-tool/weather-anthropic", "--corpus", "corpus", "--format", "json"
    )
    assert result.exit_code == 0
    (view,) = json.loads(result.output)["interactions"]
    assert view["response_body"] == {
        "stop_reason": "tool_use",
        "message": "assistant → tool_use get_weather",
    }
    stream = run("corpus", "show", "streaming/hello", "--corpus", "corpus", "--format", "json")
    (view,) = json.loads(stream.output)["interactions"]
    assert view["kind"] == "stream"
    assert view["response_body"] == {
        "events": 3,
        "by_type": {"chat.completion.chunk": 2, "[DONE]": 1},
    }


def test_show_unknown_id_suggests(root: Path) -> None:
    twin_pair(root)
    result = run("corpus", "show", "single-tool/weather", "--corpus", "corpus")
    assert result.exit_code == 2
    assert result.output == (
        "toolwire: error: corpus: no case 'single-tool/weather' (did you mean: "
        "single-tool/weather-openai, single-tool/weather-anthropic?)\n"
    )


def test_missing_corpus_folder_is_a_usage_error(root: Path) -> None:
    result = run("corpus", "list", "--corpus", "nowhere")
    assert result.exit_code == 2
    assert "nowhere: does not exist (pass the folder that holds the case files)" in result.output


def test_validate_clean(root: Path) -> None:
    twin_pair(root)
    result = run("corpus", "validate", "--corpus", "corpus")
    assert result.exit_code == 0
    assert result.output == "2 cases valid\n"


CASE = "single-tool/weather-openai"
SOURCE = "corpus/single-tool/weather-openai.yaml"


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def write(root: Path) -> None:
        document = mutated(make_case(CASE))
        change(document)
        write_case_file(root, CASE, document)

    return write


def _toolwire(**values: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        for key, value in values.items():
            if value is None:
                del document["toolwire"][key]
            else:
                document["toolwire"][key] = value

    return change


def _header(document: dict[str, Any]) -> None:
    document["interactions"][0]["request"]["headers"]["X-Api-Key"] = [OPENAI_KEY]


def _body(document: dict[str, Any]) -> None:
    # A valid answer, so that only the secret is wrong (line 37 of the file).
    valid = json.dumps(OPENAI_RESPONSE)[1:-1]
    document["interactions"][0]["response"]["body"]["string"] = (
        "{\n  " + valid + ',\n  "echo": "' + OPENAI_KEY + '"\n}'
    )


def _duplicate(root: Path) -> None:
    write_case_file(root, CASE, make_case(CASE))
    write_case_file(root, CASE, make_case(CASE), suffix=".yml")


def _dangling(root: Path) -> None:
    write_case_file(
        root, CASE, make_case(CASE, twins={"anthropic-messages": "single-tool/gone-anthropic"})
    )


def _yaml_error(root: Path) -> None:
    write_case_file(root, CASE, "version: 1\ntoolwire:\n  format: 1\n id: x\n")


_FEATURES = (
    "single-tool, parallel, mixed-text, error-result, reasoning-replay, thinking, qwen-xml, "
    "streaming, multi-turn, empty-content, unicode, large-arguments, nested-arguments, "
    "long-conversation, limits, server-tools, negative"
)
BAD_CORPORA: list[tuple[str, Callable[[Path], None], list[str]]] = [
    (
        "yaml syntax error",
        _yaml_error,
        [
            f"{SOURCE}:4: invalid YAML: did not find expected key "
            "(fix the syntax at line 4, column 2)"
        ],
    ),
    (
        "version 2",
        _edit(lambda d: d.update(version=2)),
        [
            f"{SOURCE}: cassette version 2 is not supported (toolwire reads vcrpy cassettes of "
            "version 1 (written by vcrpy 1.0 and later); re-record the case with a current vcrpy "
            "or `toolwire record`, or migrate the file to the layout in docs/corpus-format.md)"
        ],
    ),
    (
        "missing id",
        _edit(_toolwire(id=None)),
        [
            f"{SOURCE}: toolwire.id is missing (add `id: {CASE}` "
            "(the file's path below the corpus root))"
        ],
    ),
    (
        "id not matching path",
        _edit(_toolwire(id="single-tool/weather-anthropic")),
        [
            f"{SOURCE}: toolwire.id 'single-tool/weather-anthropic' does not match the file's "
            f"path (set `id: {CASE}`, or move the file to single-tool/weather-anthropic.yaml)"
        ],
    ),
    (
        "unknown feature",
        _edit(_toolwire(features=["singletool"])),
        [
            f"{SOURCE}: toolwire.features[0]: unknown feature 'singletool' "
            f"(did you mean 'single-tool'? valid: {_FEATURES})"
        ],
    ),
    (
        "unknown profile",
        _edit(_toolwire(profile="anthropic-strikt")),
        [
            f"{SOURCE}: toolwire.profile: unknown profile 'anthropic-strikt' (did you mean "
            f"'anthropic-strict'? valid: {', '.join(PROFILES)})"
        ],
    ),
    (
        "missing provenance",
        _edit(_toolwire(provenance=None)),
        [
            f"{SOURCE}: toolwire.provenance is missing (add `provenance: {{kind: documented, "
            "url: ...}` (kinds: recorded, documented, reported))"
        ],
    ),
    (
        "duplicate ids",
        _duplicate,
        [
            "corpus/single-tool/weather-openai.yml: case files end in .yaml "
            "(rename it: only .yaml files ship in the package)",
            f"corpus/single-tool/weather-openai.yml: duplicate id '{CASE}', also used by "
            f"{SOURCE} (ids are unique: delete or rename one of the two files)",
        ],
    ),
    (
        "dangling twin",
        _dangling,
        [
            f"{SOURCE}: twin anthropic-messages: 'single-tool/gone-anthropic' names no case "
            "(add the twin case)"
        ],
    ),
    (
        "secret in a header",
        _edit(_header),
        [
            f"{SOURCE}: interaction 1 request header 'X-Api-Key' is a credential header and is "
            f"not allowed (sk-p…({len(OPENAI_KEY)} chars)) "
            "(delete the header; recordings must filter credential headers)"
        ],
    ),
    (
        "secret in a body",
        _edit(_body),
        [
            f"{SOURCE}:37: OpenAI API key sk-p…({len(OPENAI_KEY)} chars) at line 37 "
            "(replace it with a placeholder such as REDACTED and revoke the key if it was real)"
        ],
    ),
]


@pytest.mark.parametrize(
    ("build", "lines"), [pytest.param(build, lines, id=name) for name, build, lines in BAD_CORPORA]
)
def test_validate_lists_each_problem_on_one_line(
    root: Path, build: Callable[[Path], None], lines: list[str]
) -> None:
    build(root)
    result = run("corpus", "validate", "--corpus", "corpus")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == lines
    problems = "problem" if len(lines) == 1 else "problems"
    files = len(list(root.rglob("*.y*ml")))
    noun = "case file" if files == 1 else "case files"
    assert result.stderr == f"{len(lines)} {problems} in {files} {noun}\n"
    assert "Traceback" not in result.output
    assert OPENAI_KEY not in result.output


@pytest.mark.parametrize(
    ("build", "lines"),
    [
        pytest.param(build, lines, id=name)
        for name, build, lines in BAD_CORPORA
        # Problems only the corpus-wide check sees (twins, secrets) do not stop `list`.
        if name not in ("dangling twin", "secret in a header", "secret in a body")
    ],
)
def test_list_stops_at_a_broken_case_with_one_line(
    root: Path, build: Callable[[Path], None], lines: list[str]
) -> None:
    build(root)
    result = run("corpus", "list", "--corpus", "corpus")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"toolwire: error: {lines[-1]}\n"
    assert "Traceback" not in result.output
