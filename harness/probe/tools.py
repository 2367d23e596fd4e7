"""The three probe tools: their definitions, what they answer, and argument checks.

None has a side effect (docs/probe.md). ``probe_echo`` returns its input,
``probe_add`` the sum, ``probe_fail_once`` always the structured error of
the design, so error repair can be observed. ``probe_echo`` takes an
optional nested ``meta`` object beside the two required parameters of the
design: step 2 needs a nested object and an integer inside it, and an
optional property leaves steps 1 and 4 unchanged.

Arguments are judged locally against each tool's JSON Schema with
jsonschema (enum, required, integer type, nested objects), never by "a call
happened".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from toolwire.harness.model import ToolDef
from toolwire.harness.schemas import format_json_path

ECHO = "probe_echo"
ADD = "probe_add"
FAIL_ONCE = "probe_fail_once"

# The structured error of the design (docs/probe.md): retryable, with a
# message that says how to fix the argument.
FAIL_ONCE_ERROR: Mapping[str, Any] = {
    "is_error": True,
    "error_code": "SCHEMA_VALIDATION_FAILED",
    "message": "input.path must be an absolute path",
    "retryable": True,
}
_MAX_FAILURES = 8


@dataclass(frozen=True)
class ProbeTool:
    name: str
    description: str
    schema: Mapping[str, Any]


PROBE_TOOLS: tuple[ProbeTool, ...] = (
    ProbeTool(
        ECHO,
        "Return the message and tag unchanged. No side effects.",
        {
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "Text to echo back."},
                "tag": {"type": "string", "enum": ["alpha", "beta"]},
                "meta": {
                    "type": "object",
                    "description": "Optional details, echoed back too.",
                    "properties": {
                        "source": {"type": "string"},
                        "priority": {"type": "integer"},
                    },
                    "required": ["source", "priority"],
                    "additionalProperties": False,
                },
            },
            "required": ["message", "tag"],
            "additionalProperties": False,
        },
    ),
    ProbeTool(
        ADD,
        "Add two integers and return the sum. No side effects.",
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
    ),
    ProbeTool(
        FAIL_ONCE,
        "Read the file at path. No side effects.",
        {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file."}},
            "required": ["path"],
            "additionalProperties": False,
        },
    ),
)
TOOLS_BY_NAME: Mapping[str, ProbeTool] = {tool.name: tool for tool in PROBE_TOOLS}


def openai_tools() -> list[dict[str, Any]]:
    """The tools as Chat Completions ``tools[]`` entries."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": _plain(tool.schema),
            },
        }
        for tool in PROBE_TOOLS
    ]


def anthropic_tools() -> list[dict[str, Any]]:
    """The tools as Messages ``tools[]`` entries."""
    return [
        {"name": tool.name, "description": tool.description, "input_schema": _plain(tool.schema)}
        for tool in PROBE_TOOLS
    ]


def gemini_tools() -> list[dict[str, Any]]:
    """The tools as one Gemini Tool of ``functionDeclarations`` (JSON Schema
    under ``parametersJsonSchema``)."""
    return [
        {
            "functionDeclarations": [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "parametersJsonSchema": _plain(tool.schema),
                }
                for tool in PROBE_TOOLS
            ]
        }
    ]


def tool_defs() -> tuple[ToolDef, ...]:
    """The tools in the canonical model (what the Qwen XML parser types values by)."""
    return tuple(
        ToolDef(name=tool.name, description=tool.description, parameters=_plain(tool.schema))
        for tool in PROBE_TOOLS
    )


def schema_failures(name: str | None, arguments: Any) -> list[str]:
    """What is wrong with ``arguments`` for tool ``name``: one line per problem."""
    tool = TOOLS_BY_NAME.get(name or "")
    if tool is None:
        return [f"{name!r} is not one of the probe tools"]
    errors = sorted(_validator(tool.name).iter_errors(arguments), key=lambda e: list(e.path))
    lines = []
    for error in errors[:_MAX_FAILURES]:
        where = format_json_path(list(error.absolute_path))
        lines.append(f"{tool.name} {where}: {_short(error.message)}")
    return lines


@dataclass(frozen=True)
class ToolAnswer:
    """A tool's result: JSON text, and whether it reports an error."""

    content: str
    is_error: bool


def run_tool(name: str | None, arguments: Any) -> ToolAnswer:
    """What the probe tool answers. Never raises: a bad call gets an error answer."""
    if name == FAIL_ONCE:
        return ToolAnswer(json.dumps(FAIL_ONCE_ERROR), True)
    if name == ECHO and isinstance(arguments, Mapping):
        return ToolAnswer(json.dumps(dict(arguments), ensure_ascii=False), False)
    if name == ADD and isinstance(arguments, Mapping):
        a, b = as_integer(arguments.get("a")), as_integer(arguments.get("b"))
        if a is not None and b is not None:
            return ToolAnswer(json.dumps({"sum": a + b}), False)
    error = {
        "is_error": True,
        "error_code": "INVALID_CALL",
        "message": f"cannot run {name!r} with these arguments",
        "retryable": True,
    }
    return ToolAnswer(json.dumps(error), True)


def as_integer(value: Any) -> int | None:
    """An integer argument, leniently: ``3`` or ``"3"`` (weak models send
    strings); the schema check reports the string separately."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def _plain(schema: Mapping[str, Any]) -> dict[str, Any]:
    # A deep copy as plain dicts: requests must never share (or expose) the constants.
    copied: dict[str, Any] = json.loads(json.dumps(schema))
    return copied


@cache
def _validator(name: str) -> Any:
    return Draft202012Validator(_plain(TOOLS_BY_NAME[name].schema))


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
