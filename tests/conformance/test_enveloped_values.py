"""A result whose text is JSON (an array, a number, an object) may reach
Gemini as that value under an envelope key (``{"output": [1, 2]}``,
``{"result": 42}``): the FunctionResponse reference lets callers pick the
keys (https://ai.google.dev/api/caching#FunctionResponse), so the model gets
the same value. And back: a Gemini envelope read as its value, or kept as the
object's JSON text, says the same (conformance/readings/result_objects.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.test_output_envelope import _gemini, _openai
from toolwire.conformance.fidelity.text import check_text
from toolwire.conformance.readings.result_objects import any_json, same_enveloped_value
from toolwire.harness.proxy.conversation_key import conversation_key


@pytest.mark.parametrize(
    ("content", "response"),
    [
        ("[1, 2]", {"output": [1, 2]}),
        ("42", {"output": 42}),
        ("42", {"result": 42}),
        ("true", {"output": True}),
        ('{"a": 1}', {"output": {"a": 1}}),
        ('[{"day": 1}]', {"content": [{"day": 1}]}),
    ],
)
def test_the_source_value_under_an_envelope_is_the_same_result(content: str, response: Any) -> None:
    assert check_text(_openai(content), _gemini(response)) == []


@pytest.mark.parametrize(
    ("response", "content"),
    [
        ({"output": [1, 2]}, "[1,2]"),  # the value alone
        ({"output": [1, 2]}, '{"output": [1, 2]}'),  # the whole object as JSON text
        ({"result": [1, 2]}, '{"result": [1, 2]}'),
        ({"output": 7}, "7"),
    ],
)
def test_a_gemini_envelope_read_back_as_text_is_the_same_result(
    response: Any, content: str
) -> None:
    assert check_text(_gemini(response), _openai(content)) == []


@pytest.mark.parametrize(
    ("content", "response"),
    [
        ("[1, 2]", {"output": [1, 3]}),  # another value
        ("42", {"output": 43}),
        ("42", {"output": True}),  # a boolean is no number
        ("sunny", {"output": ["sunny"]}),  # text is no JSON value
        ('{"a": 1}', {"city": {"a": 1}}),  # a key of the tool's own is no envelope
        ("[1, 2]", {"output": [1, 2], "status": 200}),  # more than the envelope
    ],
)
def test_a_changed_value_still_fails(content: str, response: Any) -> None:
    found = check_text(_openai(content), _gemini(response))
    assert found and found[0].code == "fidelity.text"


def test_bare_texts_are_not_compared_as_values_without_an_envelope() -> None:
    assert not same_enveloped_value("42", "42.0")
    assert same_enveloped_value("42", '{"output":42.0}')  # JSON numbers compare by value
    assert any_json("NaN") == (False, None)  # not JSON (RFC 8259)
    # Between text dialects the envelope is no license: [1, 2] sent as
    # {"output": [1, 2]} to openai-chat is text the tool never wrote.
    assert check_text(_openai("[1, 2]"), _openai('{"output": [1, 2]}'))


def test_the_replay_upstream_matches_a_value_under_a_gemini_envelope() -> None:
    for text, value in (("[1, 2]", [1, 2]), ("42", 42), ('{"a": 1}', {"a": 1})):
        recorded = conversation_key("gemini", _gemini({"output": text}).raw)
        assert conversation_key("gemini", _gemini({"output": value}).raw) == recorded, text
    # Between text dialects {"result": 42} stays a text of its own (tests/proxy/test_matching.py).
    assert conversation_key("openai-chat", _openai('{"result": 42}').raw) != conversation_key(
        "openai-chat", _openai("42").raw
    )
