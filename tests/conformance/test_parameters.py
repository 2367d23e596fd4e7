"""fidelity.parameters on hand-written pairs: the same setting spelled each
dialect's way passes; a setting dropped, changed or invented warns."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import payload
from toolwire.conformance.fidelity.parameters import check_parameters

USER = [{"role": "user", "content": "Hi"}]
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


def _chat(**top: Any) -> Any:
    return payload("openai-chat", "request", {"model": "gpt-4.1", "messages": USER, **top})


def _anthropic(**top: Any) -> Any:
    raw = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": USER, **top}
    return payload("anthropic-messages", "request", raw)


def _gemini(**config: Any) -> Any:
    raw: dict[str, Any] = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}
    if config:
        raw["generationConfig"] = config
    return payload("gemini", "request", raw)


def _responses(**top: Any) -> Any:
    return payload("openai-responses", "request", {"model": "gpt-4.1", "input": "Hi", **top})


def _messages(source: Any, output: Any) -> list[str]:
    found = check_parameters(source, output)
    assert found is not None, "the pair was not judged"
    return [f.message for f in found]


@pytest.mark.parametrize(
    ("source", "output"),
    [
        # one stop sequence: a string or a one-item list
        (lambda: _chat(stop="END"), lambda: _anthropic(stop_sequences=["END"])),
        (lambda: _anthropic(stop_sequences=["END"]), lambda: _chat(max_tokens=1024, stop="END")),
        # Anthropic's temperature stops at 1: the source's 1.5 brought into range
        (lambda: _chat(temperature=1.5), lambda: _anthropic(temperature=1)),
        # the token limit under each dialect's own name
        (lambda: _chat(max_completion_tokens=300), lambda: _gemini(maxOutputTokens=300)),
        (lambda: _chat(max_tokens=300), lambda: _responses(max_output_tokens=300)),
        # structured output: Chat's response_format, Responses' text.format, Gemini's MIME type
        (
            lambda: _chat(
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "a", "schema": SCHEMA},
                }
            ),
            lambda: _responses(
                text={"format": {"type": "json_schema", "name": "a", "schema": SCHEMA}}
            ),
        ),
        (
            lambda: _chat(
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "a", "schema": SCHEMA},
                }
            ),
            lambda: _gemini(responseMimeType="application/json", responseJsonSchema=SCHEMA),
        ),
        (lambda: _chat(reasoning_effort="low"), lambda: _responses(reasoning={"effort": "low"})),
        # a sampling value dropped (reasoning models reject them), or its default written
        (lambda: _chat(temperature=0.2, max_tokens=10), lambda: _gemini(maxOutputTokens=10)),
        (lambda: _chat(stop="END"), lambda: _anthropic(temperature=1, stop_sequences=["END"])),
    ],
)
def test_the_same_settings_spelled_another_way_pass(source: Any, output: Any) -> None:
    assert _messages(source(), output()) == []


def test_a_dropped_stop_sequence_warns_with_the_targets_field() -> None:
    (message,) = _messages(_chat(stop=["END"]), _anthropic())
    assert "stop_sequences" in message and "'END'" in message


def test_a_limit_the_source_never_set_warns_but_anthropics_required_one_does_not() -> None:
    (message,) = _messages(_chat(), _gemini(maxOutputTokens=4096))
    assert "generationConfig.maxOutputTokens" in message and "did not set" in message
    assert check_parameters(_chat(), _anthropic()) is None  # max_tokens is required there


def test_a_changed_value_or_schema_warns() -> None:
    assert _messages(_chat(temperature=0.2), _anthropic(temperature=0.7))
    other = {"type": "object", "properties": {"answer": {"type": "integer"}}}
    assert _messages(
        _chat(
            response_format={"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA}}
        ),
        _responses(text={"format": {"type": "json_schema", "name": "a", "schema": other}}),
    )


def test_a_setting_the_target_cannot_say_is_not_judged() -> None:
    # Responses has no stop sequences, Anthropic no seed: nothing to compare.
    assert check_parameters(_chat(stop="END"), _responses()) is None
    assert check_parameters(_chat(seed=7), _anthropic()) is None
