"""Strategies for hostile input: arbitrary JSON, valid payloads with one part
broken, arbitrary text rich in the markup and field names parsers look for."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from toolwire.harness.strategies import requests, responses, streams

# Field names the codecs look for: arbitrary JSON built from them reaches deep.
FIELD_NAMES = (
    "messages",
    "role",
    "content",
    "tool_calls",
    "function",
    "arguments",
    "name",
    "id",
    "type",
    "choices",
    "message",
    "delta",
    "index",
    "tool_call_id",
    "tool_use_id",
    "input",
    "text",
    "thinking",
    "signature",
    "data",
    "is_error",
    "system",
    "tools",
    "tool_choice",
    "stop_reason",
    "finish_reason",
    "usage",
    "reasoning_content",
    "content_block",
    "partial_json",
    "model",
    "max_tokens",
    "parameters",
    "input_schema",
    "properties",
    "stream",
)
ROLES_AND_TYPES = (
    "user",
    "assistant",
    "tool",
    "system",
    "developer",
    "function",
    "text",
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "image",
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "text_delta",
    "input_json_delta",
    "thinking_delta",
    "signature_delta",
    "ping",
    "error",
    "[DONE]",
)
QWEN_PIECES = (
    "<tool_call>",
    "</tool_call>",
    "<function=",
    "</function>",
    "<parameter=",
    "</parameter>",
    "<tool_",
    "</para",
    ">",
    "\n",
    "get_weather",
    "city",
    "days",
    "1",
    "1.5",
    "true",
    "null",
    '{"a": [1]}',
    "[",
    "Paris",
    " ",
    "<",
    "=",
)

_KEYS = st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=8))
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(ROLES_AND_TYPES),
    st.text(max_size=20),
)

# Any JSON-like value (NaN and infinities included: Python's json reads them).
json_values = st.recursive(
    _SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(_KEYS, children, max_size=5)
    ),
    max_leaves=25,
)

# Text where the Qwen markup's tags appear, split and combined every way.
qwen_texts = st.lists(
    st.one_of(st.sampled_from(QWEN_PIECES), st.text(max_size=6)), max_size=40
).map("".join)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*prefix, index)))
    return found


@st.composite
def broken(draw: st.DrawFn, payloads: st.SearchStrategy[Any]) -> Any:
    """A valid payload with one value replaced by arbitrary JSON, or removed."""
    value = copy.deepcopy(draw(payloads))
    path = draw(st.sampled_from(_paths(value)))
    replacement = draw(json_values)
    if not path:
        return replacement
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return value


def broken_requests(dialect: str) -> st.SearchStrategy[Any]:
    return broken(requests(dialect, max_rounds=2))


def broken_responses(dialect: str) -> st.SearchStrategy[Any]:
    return broken(responses(dialect, max_rounds=0))


def broken_streams(dialect: str) -> st.SearchStrategy[Any]:
    return broken(streams(dialect, max_rounds=0))
