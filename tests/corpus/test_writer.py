from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.corpus.factory import OPENAI_STREAM, make_case, write_case_file
from toolwire.harness.corpus.case import Interaction
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.writer import case_metadata, dump_case, write_case
from toolwire.harness.errors import CorpusError

METADATA = {
    "format": 1,
    "id": "streaming/x",
    "description": "A stream.",
    "features": ["streaming"],
    "dialect": "openai-chat",
    "profile": "openai",
    "provenance": {"kind": "documented", "url": "https://platform.openai.com/docs"},
    "expect": {},
}


def _interaction(request: str | None, response: str, stream: bool = False) -> Interaction:
    content_type = "text/event-stream" if stream else "application/json"
    return Interaction(
        method="POST",
        uri="https://api.openai.com/v1/chat/completions",
        request_headers={"Content-Type": ("application/json",)},
        request_body_text=request,
        status_code=200,
        status_message="OK",
        response_headers={"Content-Type": (content_type,)},
        response_body_text=response,
    )


def _bodies(text: str) -> list[tuple[str | None, str]]:
    loaded = yaml.safe_load(text)
    return [(i["request"]["body"], i["response"]["body"]["string"]) for i in loaded["interactions"]]


STREAM_ENDINGS = [
    OPENAI_STREAM,  # ends in "\n\n"
    OPENAI_STREAM + "\n",  # "\n\n\n"
    OPENAI_STREAM.rstrip("\n"),  # no newline at all
    OPENAI_STREAM.replace("\n", "\r\n"),  # CRLF as some servers send
    "data: {}  \n\n",  # trailing spaces
    "  data: indented\n\n",  # leading spaces
    'data: {"text": "tab\there é 漢字 🙂"}\n\n',
    ": comment\n\ndata: x\n\n\n\n",
]


@pytest.mark.parametrize("stream", STREAM_ENDINGS)
def test_stream_bodies_survive_byte_for_byte(stream: str) -> None:
    interaction = _interaction('{"stream": true}', stream, stream=True)
    # The stream is the last scalar of the document: keep chomping must not
    # swallow or add newlines there.
    text = dump_case(METADATA, [interaction])
    assert _bodies(text) == [('{\n  "stream": true\n}', stream)]


def test_streams_followed_by_more_interactions_survive() -> None:
    interactions = [_interaction("{}", body, stream=True) for body in STREAM_ENDINGS]
    text = dump_case(METADATA, interactions, pretty_json=False)
    assert _bodies(text) == [("{}", body) for body in STREAM_ENDINGS]


def test_stream_uses_a_literal_block_with_keep_chomping() -> None:
    text = dump_case(METADATA, [_interaction("{}", OPENAI_STREAM, stream=True)])
    assert "string: |+\n        data: " in text


def test_json_bodies_become_pretty_literal_blocks() -> None:
    request = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"héllo"}]}'
    text = dump_case(METADATA, [_interaction(request, '{"id":"chatcmpl-1"}')])
    assert '    body: |-\n      {\n        "model": "gpt-4o-mini",' in text
    assert '"content": "héllo"' in text  # readable, not \u00e9
    ((request_body, response_body),) = _bodies(text)
    assert json.loads(request_body or "") == json.loads(request)
    assert response_body == '{\n  "id": "chatcmpl-1"\n}'


def test_pretty_json_false_keeps_bodies_exact() -> None:
    request = '{"a":1,  "b":"\\u00e9"}'
    text = dump_case(METADATA, [_interaction(request, '{"x":1.50}')], pretty_json=False)
    assert _bodies(text) == [(request, '{"x":1.50}')]


@pytest.mark.parametrize(
    "body",
    [
        '{"a": 1, "a": 2}',  # reformatting would drop a key
        '{"big": 1e400}',  # would become Infinity
        '{"broken": ',  # not JSON at all
        '"\\ud800"',  # a lone surrogate cannot be written as UTF-8
    ],
)
def test_json_that_would_change_is_kept_raw(body: str) -> None:
    assert _bodies(dump_case(METADATA, [_interaction(body, body)])) == [(body, body)]


def test_key_order_and_layout() -> None:
    text = dump_case(METADATA, [_interaction(None, "{}")])
    assert [line for line in text.splitlines() if not line.startswith(" ")][:3] == [
        "version: 1",
        "toolwire:",
        "interactions:",
    ]
    assert "  features: [streaming]\n" in text
    assert "  expect: {}\n" in text
    assert "    status: {code: 200, message: OK}\n" in text
    assert "      Content-Type: [application/json]\n" in text
    assert "    body: null\n" in text
    assert "&id" not in text


def test_loaded_case_round_trips(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    document = make_case(
        "qwen-xml/two-calls",
        dialect="qwen-xml",
        profile="qwen3-coder",
        features=["qwen-xml", "negative"],
        twins={"openai-chat": "parallel/two-cities-openai"},
        provenance={
            "kind": "recorded",
            "endpoint": "https://api.openai.com/v1/chat/completions",
            "model": "gpt-4o-mini",
            "date": "2025-03-01",
            "recorder": "toolwire 0.1.0",
        },
        expect={
            "violations": ["xml.call_not_parsed"],
            "tool_calls": [{"name": "f", "arguments": {"n": 1, "deep": {"x": [1, "é"]}}}],
            "text": "Let me check.",
            "xml_issues": ["unclosed_tag"],
        },
    )
    original = load_case(write_case_file(root, "qwen-xml/two-calls", document), root)
    text = dump_case(case_metadata(original), original.interactions)
    path = root / "qwen-xml" / "two-calls.yaml"
    write_case(path, text, overwrite=True)
    reloaded = load_case(path, root)
    assert reloaded == replace(
        original,
        interactions=tuple(
            replace(
                i,
                request_body_text=json.dumps(json.loads(i.request_body_text or ""), indent=2),
                response_body_text=json.dumps(json.loads(i.response_body_text), indent=2),
            )
            for i in original.interactions
        ),
    )
    # Dumping again changes nothing.
    assert dump_case(case_metadata(reloaded), reloaded.interactions) == text


# A lone surrogate cannot be written as UTF-8 at all; everything else must survive.
_NO_SURROGATES = st.characters(exclude_categories=["Cs"])


@settings(max_examples=200, deadline=None)
@given(st.text(_NO_SURROGATES), st.text(_NO_SURROGATES))
def test_any_text_survives(request: str, response: str) -> None:
    interaction = _interaction(request, response, stream=True)
    text = dump_case(METADATA, [interaction, interaction], pretty_json=False)
    assert _bodies(text) == [(request, response), (request, response)]


def test_write_case_creates_folders_and_refuses_to_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("corpus/new/case.yaml")
    write_case(path, "first\n")
    assert path.read_text() == "first\n"
    with pytest.raises(CorpusError) as caught:
        write_case(path, "second\n")
    assert str(caught.value) == (
        "corpus/new/case.yaml: already exists (pass overwrite=True (or --force) to replace it)"
    )
    assert path.read_text() == "first\n"
    write_case(path, "third\n", overwrite=True)
    assert path.read_text() == "third\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["case.yaml"]  # no temp files


def test_write_case_keeps_newlines_exact(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    write_case(path, "a\r\nb\n")
    assert path.read_bytes() == b"a\r\nb\n"
