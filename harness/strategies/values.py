"""Hypothesis strategies for the leaves of a conversation: text, names, ids,
tool schemas and arguments that conform to them.

Every strategy here draws only what its dialect can carry without a
documented violation: text blocks are never empty or blank (Anthropic
rejects them), names and ids match the patterns the providers document, and
Qwen XML text never contains the markup's own tags. Readable values come
first in each ``one_of`` so that shrinking ends on short, legible examples.

Strategies are built once per dialect (``functools.cache``): Hypothesis
validates every new strategy object, which would otherwise cost more than
drawing from it.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_RESPONSES,
    QWEN_XML,
)
from toolwire.harness.strategies.plan import ToolPlan

# The tags of Qwen3-Coder's markup (WIRE.md 1.4): text and string values that
# contained them would be read as markup, so Qwen XML values never do.
QWEN_MARKUP = ("<tool_call", "</tool_call", "<function", "</function", "<parameter", "</parameter")

_WORDS = (
    "ok",
    "Paris",
    "the file",
    "42",
    "naïve café",
    "東京の天気",
    "emoji 😀",
    "line one\nline two",
    'a "quoted" word',
    "back\\slash",
    "tab\there",
    "x < y & z > w",
    "{not json}",
    "null",
    "true",
    # What the error convention reads (docs/conventions.md): a marker, and
    # whitespace where a marker's space would go.
    "Error: not found",
    " leading space",
)
_NAMES = ("get_weather", "search", "read_file", "run-tests", "calc", "Lookup2")
_PARAMETERS = ("city", "days", "path", "query", "flag", "count", "ratio", "tags", "options")

# Lone surrogates cannot be written as UTF-8 (a cassette could not hold them).
_ANY_CHARACTER = st.characters(exclude_categories=["Cs"])


def _fits(dialect: str, text: str) -> bool:
    return dialect != QWEN_XML or not any(tag in text for tag in QWEN_MARKUP)


@functools.cache
def raw_text(dialect: str, max_size: int = 40) -> st.SearchStrategy[str]:
    """Any text (possibly empty or blank) a value of ``dialect`` may hold."""
    return st.one_of(
        st.sampled_from(("", *_WORDS)),
        st.text(_ANY_CHARACTER, max_size=max_size),
    ).filter(lambda text: _fits(dialect, text))


@functools.cache
def texts(dialect: str, max_size: int = 40) -> st.SearchStrategy[str]:
    """Visible text: at least one non-blank character."""
    words = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join)
    return st.one_of(words, st.text(_ANY_CHARACTER, min_size=1, max_size=max_size)).filter(
        lambda text: bool(text.strip()) and _fits(dialect, text)
    )


@functools.cache
def tool_names() -> st.SearchStrategy[str]:
    # ^[a-zA-Z0-9_-]{1,64}$: Anthropic's tool-name pattern, and within OpenAI's.
    return st.one_of(st.sampled_from(_NAMES), st.from_regex(r"[a-zA-Z0-9_-]{1,64}", fullmatch=True))


@functools.cache
def parameter_names() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(_PARAMETERS), st.from_regex(r"[a-z_][a-z0-9_]{0,15}", fullmatch=True)
    )


@functools.cache
def opaque_tokens() -> st.SearchStrategy[str]:
    """Signatures and redacted data: opaque base64 text."""
    return st.from_regex(r"[A-Za-z0-9+/]{8,48}={0,2}", fullmatch=True)


# --- ids ------------------------------------------------------------------------

# Id forms seen on the wire, by dialect: OpenAI `call_...`, DeepSeek
# `call_00_...`, Kimi-style `functions.NAME:N` (legal in Chat Completions,
# not in Anthropic's ^[a-zA-Z0-9_-]+$), Anthropic `toolu_...`.
_ID_FORMS: dict[str, tuple[str, ...]] = {
    "openai-chat": ("call_{salt}{n}", "functions.{name}:{n}", "call-{n}"),
    DEEPSEEK_CHAT: ("call_00_{salt}{n}", "call_{n}_{salt}"),
    ANTHROPIC_MESSAGES: ("toolu_{salt}{n}", "toolu_01{n}{salt}"),
    QWEN_XML: ("call_{salt}{n}",),
    GEMINI: ("call_{salt}{n}",),
    # Responses call_ids are call_...; the fc_ item ids are not generated.
    OPENAI_RESPONSES: ("call_{salt}{n}", "call-{n}"),
}


@st.composite
def id_makers(draw: st.DrawFn, dialect: str) -> str:
    """A format for the call ids of one conversation (``{n}`` keeps them unique)."""
    form = draw(st.sampled_from(_ID_FORMS[dialect]))
    salt = draw(st.text(string.ascii_letters + string.digits, max_size=12))
    return form.replace("{salt}", salt)


def make_id(form: str, number: int, name: str) -> str:
    return form.replace("{n}", str(number)).replace("{name}", name)


# --- tools and arguments ----------------------------------------------------------

_SCALARS: dict[str, Mapping[str, Any]] = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "strings": {"type": "array", "items": {"type": "string"}},
    "integers": {"type": "array", "items": {"type": "integer"}},
    "mapping": {"type": "object", "additionalProperties": {"type": "string"}},
}


@functools.cache
def _value(kind: str, dialect: str) -> st.SearchStrategy[Any]:
    text = raw_text(dialect, max_size=20)
    # Integers JSON and every codec keep exactly; floats only when finite.
    integers = st.integers(min_value=-(2**63), max_value=2**63)
    numbers = st.one_of(integers, st.floats(allow_nan=False, allow_infinity=False))
    by_kind: dict[str, st.SearchStrategy[Any]] = {
        "string": text,
        "integer": integers,
        "number": numbers,
        "boolean": st.booleans(),
        "strings": st.lists(text, max_size=3),
        "integers": st.lists(integers, max_size=3),
        "mapping": st.dictionaries(parameter_names(), text, max_size=3),
    }
    return by_kind[kind]


@st.composite
def tools(draw: st.DrawFn, dialect: str) -> ToolPlan:
    """A tool with an object schema of typed properties (some required)."""
    names = draw(st.lists(parameter_names(), max_size=4, unique=True))
    kinds = [draw(st.sampled_from(tuple(_SCALARS))) for _ in names]
    required = [name for name in names if draw(st.booleans())]
    properties: dict[str, Any] = {}
    for name, kind in zip(names, kinds, strict=True):
        properties[name] = dict(_SCALARS[kind])
        if draw(st.booleans()):
            properties[name]["description"] = draw(texts(dialect, max_size=20))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    description = draw(st.one_of(st.none(), texts(dialect)))
    return ToolPlan(draw(tool_names()), description, schema)


@functools.cache
def tool_lists(dialect: str) -> st.SearchStrategy[list[ToolPlan]]:
    return st.lists(tools(dialect), min_size=1, max_size=3, unique_by=lambda tool: tool.name)


def arguments_for(tool: ToolPlan, dialect: str) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments valid for ``tool``'s schema: every required key, some optional ones."""
    properties: Mapping[str, Any] = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", ()))
    shape = tuple((name, _kind_of(schema), name in required) for name, schema in properties.items())
    return _arguments(shape, dialect)


@functools.cache
def _arguments(
    shape: tuple[tuple[str, str, bool], ...], dialect: str
) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {name: _value(kind, dialect) for name, kind, required in shape if required},
        optional={name: _value(kind, dialect) for name, kind, required in shape if not required},
    )


def _kind_of(schema: Mapping[str, Any]) -> str:
    bare = {key: value for key, value in schema.items() if key != "description"}
    return next((kind for kind, known in _SCALARS.items() if known == bare), "string")
