"""The fast "valid" of toolwire.harness.schemas.quick agrees with jsonschema, payload for payload.

``validate_payload`` trusts a quick "valid" and asks jsonschema for anything
else, so one wrong "valid" would hide a schema violation: the quick answer is
compared with jsonschema's own on every corpus payload, on thousands of
mutated ones (fixed seeds) and on values where Python and JSON Schema types
part ways (True is no integer, 2.0 is one, a tuple is no array).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS, PayloadKind
from toolwire.harness.payloads import events_to_wire
from toolwire.harness.schemas import load_schema, schema_registry, validate_payload
from toolwire.harness.schemas.quick import quick_validity

Sample = tuple[str, PayloadKind, Any]


@cache
def jsonschema_validator(dialect: str, kind: PayloadKind) -> Draft202012Validator:
    return Draft202012Validator(load_schema(dialect, kind), registry=schema_registry())


def agree(dialect: str, kind: PayloadKind, payload: Any) -> tuple[bool, bool]:
    """(quick answer, jsonschema's answer)."""
    quick = quick_validity(dialect, kind)
    assert quick is not None
    return quick(payload), jsonschema_validator(dialect, kind).is_valid(payload)


@cache
def corpus_samples() -> tuple[Sample, ...]:
    found: list[Sample] = []
    for case in load_corpus(bundled_corpus_root()):
        for interaction in case.interactions:
            if interaction.request_body_text:
                found.append((case.dialect, "request", interaction.request_json()))
            if not interaction.is_success():
                continue
            if interaction.is_stream():
                for event in events_to_wire(interaction.response_events()):
                    if isinstance(event["data"], dict):
                        found.append((case.dialect, "stream", event["data"]))
            else:
                found.append((case.dialect, "response", interaction.response_json()))
    return tuple(found)


@pytest.mark.parametrize("kind", PAYLOAD_KINDS)
@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_package_schema_has_a_quick_form(dialect: str, kind: PayloadKind) -> None:
    # None would mean jsonschema alone (correct, but slow): a schema gained a
    # keyword toolwire.harness.schemas.quick does not decide yet.
    assert quick_validity(dialect, kind) is not None


def test_the_quick_answer_is_jsonschemas_on_every_corpus_payload() -> None:
    samples = corpus_samples()
    assert len(samples) > 2000
    disagreements = [
        (dialect, kind)
        for dialect, kind, payload in samples
        if len(set(agree(dialect, kind, payload))) > 1
    ]
    assert disagreements == []
    # Both answers occur: the corpus holds invalid payloads too (negative cases).
    answers = {agree(d, k, p)[1] for d, k, p in samples}
    assert answers == {True, False}


# Values that make a schema keyword decide differently: wrong types, JSON
# Schema's own type rules, roles and block types of every dialect.
REPLACEMENTS: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 1.5, 2.0, -0.0, 10**20, float("nan"), "", "x",
    "user", "assistant", "tool", "system", "developer", "function", "text", "tool_use",
    "tool_result", "thinking", "image", "stop", "end_turn", "tool_calls", "call_1",
    [], [{}], ["a"], {}, {"type": "text", "text": "a"}, {"role": "user"}, (1, 2),
)  # fmt: skip
KEYS = ("type", "role", "content", "id", "name", "index", "input", "arguments", "extra")


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _places(inner, (*path, index))


def mutate(payload: Any, rng: random.Random) -> Any:
    payload = copy.deepcopy(payload)
    places = [place for place in _places(payload) if place]
    for _ in range(rng.choice((1, 1, 2, 3))):
        if not places:
            break
        place = rng.choice(places)
        parent = payload
        try:
            for step in place[:-1]:
                parent = parent[step]
            roll = rng.random()
            if roll < 0.25 and isinstance(parent, dict):
                del parent[place[-1]]
            elif roll < 0.35 and isinstance(parent, dict):
                parent[rng.choice(KEYS)] = copy.deepcopy(rng.choice(REPLACEMENTS))
            elif roll < 0.45 and isinstance(parent, list):
                parent.append(copy.deepcopy(rng.choice(parent)))
            else:
                parent[place[-1]] = copy.deepcopy(rng.choice(REPLACEMENTS))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the place
    return payload


@pytest.mark.parametrize("seed", range(4))
def test_the_quick_answer_is_jsonschemas_on_mutated_payloads(seed: int) -> None:
    rng = random.Random(seed)
    samples = corpus_samples()
    counts = {True: 0, False: 0}
    for _ in range(600):
        dialect, kind, payload = rng.choice(samples)
        mutated = mutate(payload, rng)
        quick, truth = agree(dialect, kind, mutated)
        assert quick == truth, (dialect, kind, mutated)
        counts[truth] += 1
    assert counts[True] > 50 and counts[False] > 50  # both sides were exercised


OPENAI_CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    ],
}


class Text(str):
    """A str subclass: JSON Schema's type checker sees a string."""


def chunk(index: Any) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "choices": [{"index": index, "delta": {}}]}


def openai(*messages: Any) -> dict[str, Any]:
    return {"model": "m", "messages": list(messages)}


def anthropic(*messages: Any, max_tokens: Any = 5) -> dict[str, Any]:
    return {"model": "m", "max_tokens": max_tokens, "messages": list(messages)}


USER_HI = {"role": "user", "content": "hi"}
ILLEGAL_ID = {"type": "tool_use", "id": "a.b", "name": "f", "input": {}}


@pytest.mark.parametrize(
    ("dialect", "kind", "payload"),
    [
        # True is not an integer for JSON Schema, 2.0 is; an index must be one.
        ("openai-chat", "stream", chunk(True)),
        ("openai-chat", "stream", chunk(2.0)),
        ("openai-chat", "stream", chunk(-1)),
        # A tuple is not a JSON array; a str subclass is a string.
        ("openai-chat", "request", {"model": "m", "messages": (USER_HI,)}),
        ("openai-chat", "request", openai({"role": Text("user"), "content": "hi"})),
        ("openai-chat", "request", openai({**USER_HI, 1: "x"})),
        ("openai-chat", "request", openai(OPENAI_CALL)),
        ("openai-chat", "request", openai()),
        ("anthropic-messages", "request", anthropic(USER_HI, max_tokens=True)),
        ("anthropic-messages", "request", anthropic({"role": "system", "content": "hi"})),
        ("anthropic-messages", "request", anthropic({"role": "user", "content": [ILLEGAL_ID]})),
        (
            "anthropic-messages",
            "request",
            anthropic({"role": "user", "content": [{"type": "text", "text": ""}]}),
        ),
        ("deepseek-chat", "request", openai({"role": "developer", "content": "x"})),
        ("qwen-xml", "response", {"id": "x", "object": "chat.completion", "choices": "none"}),
    ],
)
def test_the_quick_answer_is_jsonschemas_where_python_and_json_types_differ(
    dialect: str, kind: PayloadKind, payload: Any
) -> None:
    quick, truth = agree(dialect, kind, payload)
    assert quick == truth
    # And what validate_payload reports is exactly jsonschema's verdict.
    assert (validate_payload(dialect, kind, payload) == []) is truth
