"""A converter's own marker around a failed result's unchanged text marks
the failure, as ``Error:`` does (docs/conventions.md, "Failure markers around
the text"): a prefix such as ``[is_error=true]`` (one converter writes
``[is_error=true] <text>``, another ``[tool_result is_error=true]\\n<text>``)
or ``<error>...</error>`` around the text. The marker on a result that did
not fail is text: tools return ``<error>...</error>`` as their ordinary
output, so toolwire never reads it as a failure of its own accord."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import anthropic_request, openai_request
from toolwire.conformance.fidelity.error_flag import check_error_flag
from toolwire.conformance.fidelity.text import check_text
from toolwire.conformance.readings.conventions import failure_marker
from toolwire.harness.proxy.conversation_key import conversation_key

TEXT = "file not found: /etc/app.toml"
MARKED = [
    f"[proxy:is_error=true]\n{TEXT}",
    f"[is_error=true] {TEXT}",
    f"[tool_result is_error=true]\n{TEXT}",
    f"<error>{TEXT}</error>",
    f"<error>\n{TEXT}\n</error>",
    f"[error]\nError: {TEXT}",
]


def _anthropic(text: str, is_error: bool | None = True) -> Any:
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": "toolu_1", "content": text}
    if is_error is not None:
        result["is_error"] = is_error
    return anthropic_request(
        [
            {"role": "user", "content": "Read the config."},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}}],
            },
            {"role": "user", "content": [result]},
        ]
    )


def _openai(content: str) -> Any:
    call = {"id": "toolu_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}
    return openai_request(
        [
            {"role": "user", "content": "Read the config."},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "toolu_1", "content": content},
        ]
    )


@pytest.mark.parametrize("content", MARKED)
def test_a_marker_around_the_unchanged_text_marks_the_failure(content: str) -> None:
    source, output = _anthropic(TEXT), _openai(content)
    assert check_text(source, output) == []
    assert check_error_flag(source, output) == []


@pytest.mark.parametrize("content", MARKED)
def test_text_changed_besides_the_marker_still_fails(content: str) -> None:
    found = check_text(_anthropic(TEXT), _openai(content.replace("app.toml", "app.yaml")))
    assert found and len(found) == 1
    assert "besides the " in found[0].message and "which marks the failure" in found[0].message


@pytest.mark.parametrize("content", MARKED[:4])
def test_the_marker_on_a_result_that_did_not_fail_is_changed_text(content: str) -> None:
    source = _anthropic(TEXT, is_error=None)
    found = check_text(source, _openai(content))
    assert found and len(found) == 1
    marker = failure_marker(content)
    assert marker is not None
    assert f"{marker[0]} was added, but the result did not fail" in found[0].message
    assert found[0].actual == content  # the diff shows the marker
    # Not read as a failure, so no second verdict for one defect.
    assert not check_error_flag(source, _openai(content))


def test_the_marker_does_not_replace_a_flag_the_target_has() -> None:
    found = check_error_flag(_anthropic(TEXT), _anthropic(f"<error>{TEXT}</error>", None))
    assert found and "its text carries the <error>" in found[0].message


def test_what_is_no_marker() -> None:
    for text in ("[is_error=false]\nx", "[note] x", "<errors>x</errors>", "x <error>y</error>"):
        assert failure_marker(text) is None, text
    assert failure_marker("[ERROR]\nx") == ("the prefix '[ERROR]'", "x")
    assert failure_marker("<error code='2'>x</error>") == (
        "the <error>…</error> element around the text",
        "x",
    )


def test_the_replay_upstream_matches_a_marked_result_with_its_recording() -> None:
    recorded = conversation_key("openai-chat", _openai(f"Error: {TEXT}").raw)
    for content in MARKED:
        assert conversation_key("openai-chat", _openai(content).raw) == recorded, content
