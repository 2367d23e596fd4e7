from __future__ import annotations

import datetime
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.factory import make_case, mutated, twin_pair, write_case_file
from toolwire.conformance.profiles import PROFILES
from toolwire.harness.corpus.loader import bundled_corpus_root, load_case, load_corpus
from toolwire.harness.errors import CorpusError
from toolwire.harness.model import DIALECTS

CASE_ID = "single-tool/weather-openai"
SOURCE = "corpus/single-tool/weather-openai.yaml"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "corpus"
    folder.mkdir()
    return folder


def test_valid_case_loads_every_field(root: Path) -> None:
    document = make_case(
        CASE_ID,
        twins={"anthropic-messages": "single-tool/weather-anthropic"},
        expect={"violations": ["pairing.orphan_result"]},
        features=["single-tool", "negative"],
        provenance={
            "kind": "recorded",
            "endpoint": "https://api.openai.com/v1/chat/completions",
            "model": "gpt-4o-mini",
            "date": datetime.date(2025, 3, 1),
            "recorder": "toolwire 0.1.0",
        },
    )
    case = load_case(write_case_file(root, CASE_ID, document), root)
    assert case.id == CASE_ID
    assert case.dialect == "openai-chat"
    assert case.profile == "openai"
    assert case.features == ("single-tool", "negative")
    assert case.provenance.kind == "recorded"
    assert case.provenance.date == "2025-03-01"
    assert case.provenance.recorder == "toolwire 0.1.0"
    assert dict(case.twins) == {"anthropic-messages": "single-tool/weather-anthropic"}
    assert case.expect.violations == ("pairing.orphan_result",)
    assert case.is_negative
    (interaction,) = case.interactions
    assert interaction.method == "POST"
    assert interaction.status_code == 200
    assert interaction.status_message == "OK"
    assert interaction.request_headers == {"Content-Type": ("application/json",)}
    assert interaction.request_json()["model"] == "gpt-4o-mini"
    assert interaction.response_json()["choices"][0]["finish_reason"] == "tool_calls"
    assert case.payload_kinds == ("request", "response")


def test_expect_for_qwen_cases(root: Path) -> None:
    document = make_case(
        "qwen/two-calls",
        dialect="qwen-xml",
        profile="qwen3-coder",
        features=["qwen-xml", "parallel"],
        expect={
            "text": "Let me check.",
            "tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}],
            "xml_issues": ["unclosed_tag"],
        },
    )
    case = load_case(write_case_file(root, "qwen/two-calls", document), root)
    assert case.expect.text == "Let me check."
    assert case.expect.tool_calls is not None
    assert [(c.name, dict(c.arguments)) for c in case.expect.tool_calls] == [
        ("get_weather", {"city": "Paris", "days": 3})
    ]
    assert case.expect.xml_issues == ("unclosed_tag",)
    assert not case.is_negative


def test_corpus_iterates_in_id_order_and_looks_up(root: Path) -> None:
    twin_pair(root)
    write_case_file(root, "a-first", make_case("a-first"))
    (root / "README.md").write_text("not a case")
    (root / "__init__.py").write_text("")
    corpus = load_corpus(root)
    assert corpus.ids == (
        "a-first",
        "single-tool/weather-anthropic",
        "single-tool/weather-openai",
    )
    assert [case.id for case in corpus] == list(corpus.ids)
    assert len(corpus) == 3
    assert "a-first" in corpus
    assert "nope" not in corpus
    assert corpus["single-tool/weather-anthropic"].dialect == "anthropic-messages"
    assert corpus.get("nope") is None


def test_unknown_id_suggests_the_closest(root: Path) -> None:
    twin_pair(root)
    with pytest.raises(CorpusError) as caught:
        load_corpus(root)["single-tool/weather-opena"]
    assert str(caught.value) == (
        "corpus: no case 'single-tool/weather-opena' (did you mean: "
        "single-tool/weather-openai, single-tool/weather-anthropic?)"
    )


def test_duplicate_ids_refused(root: Path) -> None:
    write_case_file(root, CASE_ID, make_case(CASE_ID))
    write_case_file(root, CASE_ID, make_case(CASE_ID), suffix=".yml")
    with pytest.raises(CorpusError) as caught:
        load_corpus(root)
    assert str(caught.value) == (
        f"corpus/single-tool/weather-openai.yml: duplicate id '{CASE_ID}', also used by {SOURCE} "
        "(ids are unique: delete or rename one of the two files)"
    )


def test_bundled_corpus_root_is_the_repository_corpus() -> None:
    root = bundled_corpus_root()
    assert root.is_dir()
    assert root.name == "corpus"
    assert (root / "__init__.py").is_file()


def test_loading_does_not_import_vcrpy(root: Path) -> None:
    write_case_file(root, CASE_ID, make_case(CASE_ID))
    code = (
        "import sys; from pathlib import Path\n"
        "from toolwire.harness.corpus.loader import load_corpus\n"
        "corpus = load_corpus(Path('corpus'))\n"
        "assert len(corpus) == 1\n"
        "print(sorted(m for m in sys.modules if m == 'vcr' or m.startswith('vcr.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root.parent
    )
    assert result.stdout.strip() == "[]"


def test_yaml_syntax_error_names_file_and_line(root: Path) -> None:
    text = "version: 1\ntoolwire:\n  id: [unclosed\ninteractions: []\n"
    path = write_case_file(root, CASE_ID, text)
    with pytest.raises(CorpusError) as caught:
        load_case(path, root)
    assert str(caught.value) == (
        f"{SOURCE}:4: invalid YAML: did not find expected ',' or ']' "
        "(fix the syntax at line 4, column 13)"
    )


def test_yaml_error_never_quotes_the_file(root: Path) -> None:
    secret = "sk-proj-" + "Ab3" * 20
    text = f"version: 1\ntoolwire: {{key: {secret}\n  : : :\n"
    with pytest.raises(CorpusError) as caught:
        load_case(write_case_file(root, CASE_ID, text), root)
    assert secret not in str(caught.value)
    assert str(caught.value).startswith(f"{SOURCE}:")


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = document
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        if value is _DELETE:
            del target[last]
        else:
            target[int(last) if last.isdigit() else last] = value

    return apply


_DELETE = object()
_VERSION_HINT = (
    "toolwire reads vcrpy cassettes of version 1 (written by vcrpy 1.0 and later); re-record the "
    "case with a current vcrpy or `toolwire record`, or migrate the file to the layout in "
    "docs/corpus-format.md"
)
_FEATURES = (
    "single-tool, parallel, mixed-text, error-result, reasoning-replay, thinking, qwen-xml, "
    "streaming, multi-turn, empty-content, unicode, large-arguments, nested-arguments, "
    "long-conversation, limits, server-tools, negative"
)
_PROFILES = ", ".join(PROFILES)

BAD_INPUTS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("version 2", _set("version", 2), f"cassette version 2 is not supported ({_VERSION_HINT})"),
    ("no version", _set("version", _DELETE), "the cassette has no version (add `version: 1`)"),
    (
        "missing id",
        _set("toolwire.id", _DELETE),
        "toolwire.id is missing (add `id: single-tool/weather-openai` "
        "(the file's path below the corpus root))",
    ),
    (
        "id not matching path",
        _set("toolwire.id", "single-tool/weather"),
        "toolwire.id 'single-tool/weather' does not match the file's path "
        "(set `id: single-tool/weather-openai`, or move the file to single-tool/weather.yaml)",
    ),
    (
        "id not a slug",
        _set("toolwire.id", "Single Tool"),
        "toolwire.id must be lower-case slug segments joined by '/' "
        "(use `id: single-tool/weather-openai`)",
    ),
    (
        "unknown feature",
        _set("toolwire.features", ["single-tool", "paralel"]),
        f"toolwire.features[1]: unknown feature 'paralel' (did you mean 'parallel'? "
        f"valid: {_FEATURES})",
    ),
    (
        "feature twice",
        _set("toolwire.features", ["parallel", "parallel"]),
        "toolwire.features lists parallel more than once (list each feature once)",
    ),
    (
        "no features",
        _set("toolwire.features", []),
        f"toolwire.features must be a non-empty list (use features from: {_FEATURES})",
    ),
    (
        "unknown profile",
        _set("toolwire.profile", "opneai"),
        f"toolwire.profile: unknown profile 'opneai' (did you mean 'openai'? valid: {_PROFILES})",
    ),
    (
        "unknown dialect",
        _set("toolwire.dialect", "openai"),
        "toolwire.dialect: unknown dialect 'openai' (did you mean 'openai-chat'? "
        f"valid: {', '.join(DIALECTS)})",
    ),
    (
        "missing provenance",
        _set("toolwire.provenance", _DELETE),
        "toolwire.provenance is missing (add `provenance: {kind: documented, url: ...}` "
        "(kinds: recorded, documented, reported))",
    ),
    (
        "incomplete recorded provenance",
        _set("toolwire.provenance", {"kind": "recorded", "endpoint": "https://api.openai.com"}),
        "toolwire.provenance of kind 'recorded' is missing model, date, recorder "
        "(a recorded case needs: endpoint, model, date, recorder)",
    ),
    (
        "unknown provenance kind",
        _set("toolwire.provenance", {"kind": "recored"}),
        "toolwire.provenance.kind: unknown kind 'recored' (did you mean 'recorded'? "
        "valid: recorded, documented, reported)",
    ),
    (
        "provenance url not a URL",
        _set("toolwire.provenance.url", "platform.openai.com/docs"),
        "toolwire.provenance.url must be an http(s) URL (write the full https://… URL)",
    ),
    (
        "provenance stray key",
        _set("toolwire.provenance.date", "2025-01-01"),
        "toolwire.provenance: unknown key 'date' (valid: kind, url)",
    ),
    (
        "bad date",
        _set(
            "toolwire.provenance",
            {
                "kind": "recorded",
                "endpoint": "https://api.openai.com/v1/chat/completions",
                "model": "gpt-4o-mini",
                "date": "2025-02-30",
                "recorder": "toolwire 0.1.0",
            },
        ),
        "toolwire.provenance.date must be a date (write it as YYYY-MM-DD)",
    ),
    (
        "format 2",
        _set("toolwire.format", 2),
        "toolwire.format 2 is newer than this toolwire reads (1) (upgrade toolwire)",
    ),
    (
        "unknown toolwire key",
        _set("toolwire.twin", {}),
        "toolwire: unknown key 'twin' (did you mean 'twins'? valid: format, id, description, "
        "features, dialect, profile, provenance, twins, expect)",
    ),
    (
        "twin in own dialect",
        _set("toolwire.twins", {"openai-chat": "single-tool/other"}),
        "toolwire.twins.openai-chat: a case cannot be its own dialect's twin "
        "(list twins in other dialects only)",
    ),
    (
        "twin not an id",
        _set("toolwire.twins", {"anthropic-messages": "Weather Anthropic"}),
        "toolwire.twins.anthropic-messages must be a case id "
        "(write the twin's id, e.g. parallel/two-calls)",
    ),
    (
        "expect unknown key",
        _set("toolwire.expect", {"violation": ["pairing.orphan_result"]}),
        "toolwire.expect: unknown key 'violation' (did you mean 'violations'? "
        "valid: violations, tool_calls, text, xml_issues)",
    ),
    (
        "two-line description",
        _set("toolwire.description", "one\ntwo"),
        "toolwire.description must be one non-empty line (say in one line what the case shows)",
    ),
    (
        "no toolwire block",
        _set("toolwire", _DELETE),
        "has no toolwire block (add a top-level `toolwire:` block with format: 1 and "
        "id: single-tool/weather-openai)",
    ),
    (
        "unknown top-level key",
        _set("metadata", {}),
        "unknown top-level key 'metadata' (valid: version, toolwire, interactions)",
    ),
    (
        "no interactions",
        _set("interactions", []),
        "interactions must be a non-empty list (record at least one request and its response)",
    ),
    (
        "request without body",
        _set("interactions.0.request.body", _DELETE),
        "interactions[0].request lacks body "
        "(a vcrpy request has exactly: method, uri, headers, body)",
    ),
    (
        "request with an extra key",
        _set("interactions.0.request.url", "https://x"),
        "interactions[0].request has unknown url "
        "(a vcrpy request has exactly: method, uri, headers, body)",
    ),
    (
        "relative uri",
        _set("interactions.0.request.uri", "/v1/chat/completions"),
        "interactions[0].request.uri must be an absolute http(s) URL (write https://host/path)",
    ),
    (
        "binary response body",
        _set("interactions.0.response.body.string", b"\x00\x01"),
        "interactions[0].response.body.string must be text "
        "(store the body as UTF-8 text (a `|-` block), not binary)",
    ),
    (
        "header value not a list",
        _set("interactions.0.response.headers", {"Content-Length": ["12", 12]}),
        "interactions[0].response.headers.Content-Length must be a list of strings "
        "(write `Content-Length: ['value']` (quote numbers))",
    ),
    (
        "response without headers",
        _set("interactions.0.response.headers", _DELETE),
        "interactions[0].response.headers must be a mapping (see docs/corpus-format.md)",
    ),
    (
        "bad status",
        _set("interactions.0.response.status.code", 99),
        "interactions[0].response.status.code must be an HTTP status (write code: 200)",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [pytest.param(mutate, message, id=name) for name, mutate, message in BAD_INPUTS],
)
def test_bad_input_is_one_clear_line(
    root: Path, mutate: Callable[[dict[str, Any]], None], message: str
) -> None:
    document = mutated(make_case(CASE_ID))
    mutate(document)
    path = write_case_file(root, CASE_ID, document)
    with pytest.raises(CorpusError) as caught:
        load_case(path, root)
    assert str(caught.value) == f"{SOURCE}: {message}"
    assert "\n" not in str(caught.value)


def test_not_a_mapping(root: Path) -> None:
    path = write_case_file(root, CASE_ID, "- just\n- a list\n")
    with pytest.raises(CorpusError, match=r"is not a cassette"):
        load_case(path, root)


def test_file_outside_the_root(root: Path, tmp_path: Path) -> None:
    path = write_case_file(tmp_path / "elsewhere", "x", make_case("x"))
    with pytest.raises(CorpusError) as caught:
        load_case(path, root)
    assert str(caught.value) == (
        "elsewhere/x.yaml: is not inside the corpus folder corpus "
        "(move the file below the corpus root)"
    )


def test_error_messages_mask_credentials(root: Path) -> None:
    secret = "sk-proj-" + "Zq8" * 20
    document = make_case(CASE_ID, features=[secret])
    with pytest.raises(CorpusError) as caught:
        load_case(write_case_file(root, CASE_ID, document), root)
    assert secret not in str(caught.value)
    assert "sk-p…(68 chars)" in str(caught.value)


def test_misspelled_provenance_key_is_named(root: Path) -> None:
    document = make_case(CASE_ID, provenance={"kind": "documented", "URL": "https://x.org"})
    with pytest.raises(CorpusError) as caught:
        load_case(write_case_file(root, CASE_ID, document), root)
    assert str(caught.value) == (
        f"{SOURCE}: toolwire.provenance: unknown key 'URL' (did you mean 'url'? valid: kind, url)"
    )
