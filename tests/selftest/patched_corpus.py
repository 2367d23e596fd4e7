"""Test-local cases the bundled corpus lacks, written next to a copy of it.

Each patch copies one bundled case under a new id (``selftest/...``) and
changes one thing. They live only in a test's tmp_path: the corpus itself is
not this package's to change. The lead may want them in the corpus.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus

Json = dict[str, Any]


@dataclass(frozen=True)
class Patch:
    base: str  # the bundled case copied
    case_id: str  # the copy's id
    description: str
    request: Callable[[Json], Json] | None = None
    response_body: Callable[[str], str] | None = None


def _tool_choice_required(body: Json) -> Json:
    return {**body, "tool_choice": "required"}


# The first tool-call chunk of the stream also carries text, as some
# OpenAI-compatible servers send it (content and tool_calls in one delta).
_FIRST_CALL_CHUNK = '"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0'


def _text_in_first_call_chunk(body: str) -> str:
    if body.count(_FIRST_CALL_CHUNK) != 1:
        raise AssertionError("streaming/parallel-openai changed: update the patch")
    return body.replace(
        _FIRST_CALL_CHUNK,
        '"delta":{"role":"assistant","content":"Checking both.","tool_calls":[{"index":0',
    )


# Every schema keyword whose loss changes what a validator accepts or what the
# model is told, in one tool (no bundled case has strict, oneOf or format).
_RICH_PARAMETERS: Json = {
    "type": "object",
    "description": "Where and how to look.",
    "properties": {
        "city": {"type": "string", "description": "City name, e.g. Paris", "minLength": 1},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "date": {"type": "string", "format": "date"},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "place": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/point"}]},
        "mode": {"oneOf": [{"const": "fast"}, {"const": "exact"}]},
    },
    "required": ["city", "unit", "date", "days", "place", "mode"],
    "additionalProperties": False,
    "$defs": {
        "point": {
            "type": "object",
            "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
            "required": ["lat", "lon"],
            "additionalProperties": False,
        }
    },
}


def _rich_schema(body: Json) -> Json:
    tools = []
    for tool in body.get("tools") or ():
        function = {**tool["function"], "parameters": _RICH_PARAMETERS, "strict": True}
        tools.append({**tool, "function": function})
    return {**body, "tools": tools}


PATCHES: dict[str, Patch] = {
    "tool-choice": Patch(
        base="single-tool/weather-openai",
        case_id="selftest/weather-openai-tool-choice-required",
        description="single-tool/weather-openai with tool_choice: required (no bundled case "
        "sets tool_choice)",
        request=_tool_choice_required,
    ),
    "stop-empty-openai": Patch(
        base="single-tool/weather-openai",
        case_id="selftest/weather-openai-stop-empty",
        description="single-tool/weather-openai with stop: [] (no stop sequence, spelled empty)",
        request=lambda body: {**body, "stop": []},
    ),
    "stop-empty-anthropic": Patch(
        base="single-tool/weather-anthropic",
        case_id="selftest/weather-anthropic-stop-empty",
        description="single-tool/weather-anthropic with stop_sequences: [] (no stop sequence, "
        "spelled empty)",
        request=lambda body: {**body, "stop_sequences": []},
    ),
    "rich-schema": Patch(
        base="single-tool/weather-openai",
        case_id="selftest/weather-openai-rich-schema",
        description="single-tool/weather-openai whose tool is strict and its schema uses enum, "
        "format, bounds, anyOf, oneOf, $ref/$defs and additionalProperties",
        request=_rich_schema,
    ),
    "text-in-call-chunk": Patch(
        base="streaming/parallel-openai",
        case_id="selftest/parallel-openai-text-in-call-chunk",
        description="streaming/parallel-openai whose first tool-call chunk also carries text",
        response_body=_text_in_first_call_chunk,
    ),
}


def patched_corpus(root: Path, names: Iterable[str]) -> Corpus:
    """The bundled corpus copied to ``root`` (a fresh folder), plus the named patches."""
    bundled = bundled_corpus_root()
    shutil.copytree(bundled, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for name in names:
        _write(PATCHES[name], bundled, root)
    return load_corpus(root)


def _write(patch: Patch, bundled: Path, root: Path) -> None:
    data = yaml.safe_load((bundled / f"{patch.base}.yaml").read_text(encoding="utf-8"))
    meta = data["toolwire"]
    meta["id"] = patch.case_id
    meta["description"] = patch.description
    meta.pop("twins", None)  # the twin does not carry the change
    for interaction in data["interactions"]:
        if patch.request is not None:
            body = json.loads(interaction["request"]["body"])
            interaction["request"]["body"] = json.dumps(patch.request(body), indent=2)
        if patch.response_body is not None:
            response = interaction["response"]["body"]
            response["string"] = patch.response_body(response["string"])
    target = root / f"{patch.case_id}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
