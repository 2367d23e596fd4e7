"""The corpus keeps at least ten cases of each shape issue 14 found missing.

Each shape is recognised from the payloads themselves (not from folder names
or features), so a case that is edited until it no longer holds the shape
stops counting:

- tool schemas that use ``strict``, ``additionalProperties``, ``anyOf`` /
  ``oneOf``, ``$ref`` / ``$defs``, ``enum``, ``format`` or nested objects;
- openai-chat payloads that carry reasoning the way compatible servers send it
  (``reasoning_content``, ``reasoning``, ``reasoning_details``);
- openai-chat <-> deepseek-chat twins (what an OpenAI -> DeepSeek proxy is judged on);
- anthropic thinking with an openai-chat twin (what an anthropic -> openai-chat
  proxy is judged on);
- ``stop: []``; Anthropic server-side tool blocks; empty-string tool results;
- streams cut off by the output limit in the middle of a call's arguments;
- one-request conversations whose last turn holds tool results.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from toolwire.harness.corpus.case import Case, Interaction
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus

MINIMUM = 10
SCHEMA_KEYWORDS = ("strict", "additionalProperties", "anyOf", "oneOf", "$ref", "$defs", "format")
REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_details")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus(bundled_corpus_root())


def _positive(corpus: Corpus) -> Iterator[Case]:
    return (case for case in corpus if not case.is_negative)


def _requests(case: Case) -> Iterator[dict[str, Any]]:
    for interaction in case.interactions:
        body = interaction.request_json()
        if isinstance(body, dict):
            yield body


def _stream_data(interaction: Interaction) -> Iterator[dict[str, Any]]:
    for event in interaction.response_events():
        if event.data.strip() not in ("", "[DONE]"):
            data = json.loads(event.data)
            if isinstance(data, dict):
                yield data


def _answers(case: Case) -> Iterator[dict[str, Any]]:
    """Every response body, and every event of every stream."""
    for interaction in case.interactions:
        if not interaction.is_success():
            continue
        if interaction.is_stream():
            yield from _stream_data(interaction)
        else:
            body = interaction.response_json()
            if isinstance(body, dict):
                yield body


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _schemas(case: Case) -> Iterator[Any]:
    for body in _requests(case):
        for tool in body.get("tools") or ():
            if not isinstance(tool, dict):
                continue
            function = tool.get("function")
            if isinstance(function, dict):
                yield {**(function.get("parameters") or {}), "strict": function.get("strict")}
            elif "input_schema" in tool:
                yield {**tool["input_schema"], "strict": tool.get("strict")}


def _schema_keywords(case: Case) -> set[str]:
    found: set[str] = set()
    for schema in _schemas(case):
        if schema.get("strict") is True:
            found.add("strict")
        for node in _walk(schema):
            if not isinstance(node, dict):
                continue
            found |= {key for key in SCHEMA_KEYWORDS if key in node and key != "strict"}
            if "enum" in node:
                found.add("enum")
            properties = node.get("properties")
            if isinstance(properties, dict) and any(
                isinstance(p, dict) and isinstance(p.get("properties"), dict)
                for p in properties.values()
            ):
                found.add("nested objects")
    return found


def _rich_schema(case: Case) -> bool:
    """Two or more keywords beyond a plain enum: a schema a converter can damage."""
    return len(_schema_keywords(case) - {"enum"}) >= 2


def _openai_reasoning(fields: tuple[str, ...], kind: str) -> Callable[[Case], bool]:
    def holds(case: Case) -> bool:
        if case.dialect != "openai-chat":
            return False
        if kind == "request":
            messages = [m for body in _requests(case) for m in body.get("messages") or ()]
        else:
            messages = [
                choice.get("message") or choice.get("delta") or {}
                for body in _answers(case)
                for choice in body.get("choices") or ()
            ]
        return any(isinstance(m, dict) and m.get(f) for m in messages for f in fields)

    return holds


def _twin_pair(dialect: str, other: str) -> Callable[[Case], bool]:
    return lambda case: case.dialect == dialect and other in case.twins


def _proxy_thinking(case: Case) -> bool:
    return (
        case.dialect == "anthropic-messages"
        and "openai-chat" in case.twins
        and any(
            node.get("type") == "thinking"
            for body in _answers(case)
            for node in _walk(body)
            if isinstance(node, dict)
        )
    )


def _empty_stop(case: Case) -> bool:
    return any(body.get("stop") == [] for body in _requests(case))


def _server_blocks(case: Case) -> bool:
    seen = {
        node.get("type")
        for body in [*_requests(case), *_answers(case)]
        for node in _walk(body)
        if isinstance(node, dict) and isinstance(node.get("type"), str)
    }
    results = {t for t in seen if t.endswith("_tool_result") and t != "tool_result"}
    return "server_tool_use" in seen and bool(results)


def _empty_result(case: Case) -> bool:
    for body in _requests(case):
        for message in body.get("messages") or ():
            if message.get("role") == "tool" and message.get("content") == "":
                return True
            content = message.get("content")
            if isinstance(content, list) and any(
                isinstance(b, dict) and b.get("type") == "tool_result" and b.get("content") == ""
                for b in content
            ):
                return True
    return False


def _cut_off_call(case: Case) -> bool:
    """A stream that stops at the output limit while a call's arguments are open."""
    for interaction in case.interactions:
        if not (interaction.is_success() and interaction.is_stream()):
            continue
        events = list(_stream_data(interaction))
        stops = {
            e.get("delta", {}).get("stop_reason")
            for e in events
            if e.get("type") == "message_delta"
        } | {c.get("finish_reason") for e in events for c in e.get("choices") or ()}
        if not stops & {"max_tokens", "length"}:
            continue
        fragments: dict[int, str] = {}
        for data in events:
            delta = data.get("delta") or {}
            if delta.get("type") == "input_json_delta":
                index = data["index"]
                fragments[index] = fragments.get(index, "") + delta["partial_json"]
            for choice in data.get("choices") or ():
                for call in (choice.get("delta") or {}).get("tool_calls") or ():
                    piece = (call.get("function") or {}).get("arguments") or ""
                    fragments[call["index"]] = fragments.get(call["index"], "") + piece
        if fragments and not _is_json(fragments[max(fragments)]):
            return True
    return False


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _results_last(case: Case) -> bool:
    """One request whose last turn holds results: the calls they answer exist
    only in the history, so a converter sees the results with nothing after them
    and no earlier response to pair them with."""
    bodies = list(_requests(case))
    if len(bodies) != 1:
        return False
    messages = bodies[-1].get("messages") or []
    if not messages:
        return False
    last = messages[-1]
    content = last.get("content")
    return last.get("role") == "tool" or (
        last.get("role") == "user"
        and isinstance(content, list)
        and bool(content)
        and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    )


GAPS: dict[str, Callable[[Case], bool]] = {
    "tool schemas with two or more of strict, additionalProperties, anyOf/oneOf, "
    "$ref/$defs, format, nested objects": _rich_schema,
    "openai-chat requests carrying reasoning": _openai_reasoning(REASONING_FIELDS, "request"),
    "openai-chat responses or streams carrying reasoning": _openai_reasoning(
        REASONING_FIELDS, "answer"
    ),
    "openai-chat cases with a deepseek-chat twin": _twin_pair("openai-chat", "deepseek-chat"),
    "deepseek-chat cases with an openai-chat twin": _twin_pair("deepseek-chat", "openai-chat"),
    "anthropic thinking with an openai-chat twin": _proxy_thinking,
    "requests with stop: []": _empty_stop,
    "server_tool_use with its server-side result block": _server_blocks,
    "empty-string tool results": _empty_result,
    "calls cut off by the output limit in a stream": _cut_off_call,
    "one-request conversations whose last turn holds results": _results_last,
}
# openai-chat requests that replay reasoning are rarer: only a client that keeps
# a compatible server's reasoning sends it back.
MINIMA = {"openai-chat requests carrying reasoning": 5}


@pytest.mark.parametrize("gap", list(GAPS))
def test_each_gap_has_enough_cases(corpus: Corpus, gap: str) -> None:
    found = [case.id for case in _positive(corpus) if GAPS[gap](case)]
    assert len(found) >= MINIMA.get(gap, MINIMUM), f"{gap}: only {found}"


def test_every_schema_keyword_is_used(corpus: Corpus) -> None:
    used: set[str] = set()
    for case in _positive(corpus):
        used |= _schema_keywords(case)
    assert used >= {*SCHEMA_KEYWORDS, "enum", "nested objects"}


def test_each_compatible_server_s_reasoning_field_appears(corpus: Corpus) -> None:
    for field in REASONING_FIELDS:
        holds = _openai_reasoning((field,), "answer")
        assert any(holds(case) for case in _positive(corpus)), field


def test_web_search_result_blocks_are_among_them(corpus: Corpus) -> None:
    types = {
        node.get("type")
        for case in _positive(corpus)
        if _server_blocks(case)
        for body in _answers(case)
        for node in _walk(body)
        if isinstance(node, dict)
    }
    assert "web_search_tool_result" in types


def test_the_recognisers_see_what_they_look_for(corpus: Corpus) -> None:
    """Each recogniser against one case known to hold its shape and one that does not."""
    plain = corpus["single-tool/tool-choice-named-openai"]
    assert not any(check(plain) for check in GAPS.values())
    assert _cut_off_call(corpus["truncated-stream/mid-string-value-openai"])
    assert not _cut_off_call(corpus["streaming/single-call-openai"])
    assert _server_blocks(corpus["server-tools/web-search-stream"])
    assert _empty_stop(corpus["stop-empty/stream-call-openai"])
