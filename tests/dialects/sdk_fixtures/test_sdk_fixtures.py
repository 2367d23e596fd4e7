"""toolwire's stream reassembly against the official SDKs' own stream fixtures.

Every fixture (SOURCES.md) is parsed by toolwire's codec; the reassembled
message must equal what the SDK's tests expect its accumulator to build
(expected.py), and `toolwire lint` must find no MUST violation in a stream
the SDK accepts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.dialects.sdk_fixtures import expected
from toolwire.harness.dialects import get_codec
from toolwire.harness.lint.check import lint_text
from toolwire.harness.model import Choice, StreamTranscript, TextBlock, ToolCall
from toolwire.harness.sse import parse_sse

HERE = Path(__file__).parent
OPENAI = HERE / "openai-python"
ANTHROPIC_PY = HERE / "anthropic-sdk-python"
ANTHROPIC_TS = HERE / "anthropic-sdk-typescript"
FIXTURES = sorted(HERE.glob("*/*.sse"))
DIALECT = {
    "openai-python": "openai-chat",
    "anthropic-sdk-python": "anthropic-messages",
    "anthropic-sdk-typescript": "anthropic-messages",
}


def transcript(path: Path) -> StreamTranscript:
    dialect = DIALECT[path.parent.name]
    return get_codec(dialect).parse_stream(parse_sse(path.read_text(encoding="utf-8")))


def rendered(path: Path) -> dict[str, Any]:
    message: dict[str, Any] = get_codec("anthropic-messages").render_response(
        transcript(path).response
    )
    return message


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_every_fixture_has_an_expectation() -> None:
    listed = (
        {OPENAI / n for n in [*expected.OPENAI_PYTHON, *expected.OPENAI_PYTHON_FINISH_ONLY]}
        | {ANTHROPIC_PY / n for n in expected.ANTHROPIC_PYTHON}
        | {ANTHROPIC_TS / n for n in [*expected.ANTHROPIC_TYPESCRIPT, *expected.TYPESCRIPT_SPLITS]}
    )
    assert set(FIXTURES) == listed
    assert len(FIXTURES) == 23


# --- openai-python -------------------------------------------------------------


def _choice_view(choice: Choice) -> dict[str, Any]:
    message = choice.message
    texts = [b.text for b in message.blocks if isinstance(b, TextBlock)]
    calls = [b for b in message.blocks if isinstance(b, ToolCall)]
    refusal = message.extra.get("refusal")
    return {
        "index": choice.index,
        "finish_reason": choice.stop_reason.raw,
        "content": "".join(texts) if message.content_form == "string" else None,
        "refusal": refusal if isinstance(refusal, str) else None,
        "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.raw_arguments} for c in calls],
    }


@pytest.mark.parametrize("file", sorted(expected.OPENAI_PYTHON))
def test_openai_python_fixture_reassembles_as_the_sdk_expects(file: str) -> None:
    response = transcript(OPENAI / file).response
    assert [_choice_view(c) for c in response.choices] == expected.OPENAI_PYTHON[file]


@pytest.mark.parametrize("file", sorted(expected.OPENAI_PYTHON_FINISH_ONLY))
def test_openai_python_cut_stream_ends_as_the_sdk_expects(file: str) -> None:
    response = transcript(OPENAI / file).response
    assert response.stop_reason.raw == expected.OPENAI_PYTHON_FINISH_ONLY[file]


@pytest.mark.parametrize("file", sorted(expected.OPENAI_PYTHON_LOGPROBS))
def test_openai_python_logprobs_accumulate_as_the_sdk_expects(file: str) -> None:
    field, tokens = expected.OPENAI_PYTHON_LOGPROBS[file]
    logprobs = transcript(OPENAI / file).response.choices[0].extra["logprobs"]
    assert [entry["token"] for entry in logprobs[field]] == tokens


# --- anthropic SDKs -------------------------------------------------------------


def _subset(message: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    return {key: message.get(key) for key in want}


@pytest.mark.parametrize("file", sorted(expected.ANTHROPIC_PYTHON))
def test_anthropic_python_fixture_reassembles_as_the_sdk_expects(file: str) -> None:
    want = expected.ANTHROPIC_PYTHON[file]
    message = rendered(ANTHROPIC_PY / file)
    assert _subset(message, want) == want
    blocks = expected.ANTHROPIC_PYTHON_BLOCKS.get(file)
    if blocks is not None:
        assert [(b["type"], b.get("text")) for b in message["content"]] == blocks


@pytest.mark.parametrize("file", sorted(expected.ANTHROPIC_TYPESCRIPT))
def test_anthropic_typescript_fixture_reassembles_as_the_sdk_expects(file: str) -> None:
    want = expected.ANTHROPIC_TYPESCRIPT[file]
    assert _subset(rendered(ANTHROPIC_TS / file), want) == want


def test_a_cut_tool_input_follows_the_python_sdk_where_the_two_sdks_split() -> None:
    split = expected.TYPESCRIPT_SPLITS["incomplete_partial_json_response.sse"]
    for folder in (ANTHROPIC_TS, ANTHROPIC_PY):
        call = rendered(folder / "incomplete_partial_json_response.sse")["content"][1]
        assert call["input"] == split["python"]
        assert call["input"] != split["typescript"]
        # Both SDKs keep the complete members and a prefix of the cut array.
        assert call["input"]["lines_of_text"][:1] == split["typescript"]["lines_of_text"]


# --- the SDKs accept these streams: no MUST verdict -----------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=name)
def test_lint_finds_no_must_violation_in_a_stream_the_sdk_accepts(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = lint_text(text, name(path), dialect=DIALECT[path.parent.name])
    assert [v.line() for v in found if v.level == "MUST"] == []


@pytest.mark.parametrize("path", FIXTURES, ids=name)
def test_the_reassembler_notes_no_grammar_problem(path: Path) -> None:
    # Notes that are not problems: a tool input cut by max_tokens, and the
    # cut block's missing content_block_stop (the SDKs accept both).
    accepted = {"input_cut_off", "block_not_stopped"}
    issues = [i.code for i in transcript(path).issues if i.code not in accepted]
    assert issues == []
