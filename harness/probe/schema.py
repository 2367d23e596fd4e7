"""The published JSON Schema of the capability profile (``toolwire probe --schema``).

Draft 2020-12, closed objects: a consumer can rely on every key it reads
and a misspelled one is an error. ``validate_profile`` returns the
violations as one-line messages (empty when the document is valid).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from toolwire.harness.probe.evidence import STATUSES, STEPS
from toolwire.harness.schemas import format_json_path

SCHEMA_ID = "https://schemas.toolwire.invalid/probe-profile.json"
SCHEMA_LEVELS = ("strict-json-schema", "simple-object", "string-only")
TOOL_CALL_FORMATS = ("anthropic", "openai", "gemini", "xml", "json-text", "none")
ERROR_REPAIRS = ("reliable", "limited", "none")
PROBE_DIALECTS = ("openai-chat", "anthropic-messages", "openai-responses", "gemini")

_NULLABLE_STRING = {"type": ["string", "null"]}


def _evidence_schema() -> dict[str, Any]:
    dimensions = sorted(d for _name, d in STEPS.values() if d is not None)
    return {
        "type": "object",
        "description": "What one step found.",
        "required": [
            "step",
            "dimension",
            "status",
            "format",
            "parser",
            "reason",
            "failures",
            "requests",
        ],
        "additionalProperties": False,
        "properties": {
            "step": {"type": "integer", "minimum": 1, "maximum": len(STEPS)},
            "dimension": {
                "description": "The profile field this step decides (null: none).",
                "enum": [*dimensions, None],
            },
            "status": {"enum": list(STATUSES)},
            "format": {
                "description": "The tool-call format seen (null when nothing was read).",
                "enum": [*TOOL_CALL_FORMATS, None],
            },
            "parser": {
                **_NULLABLE_STRING,
                "description": "What read the calls: a codec, its stream reassembler, "
                "the Qwen XML parser or the JSON-in-text scanner.",
            },
            "reason": {"type": "string", "minLength": 1},
            "failures": {"type": "array", "items": {"type": "string", "minLength": 1}},
            "requests": {"type": "integer", "minimum": 0},
        },
    }


def profile_schema() -> dict[str, Any]:
    """The schema, as a fresh dict."""
    evidence = _evidence_schema()
    names = [name for name, _dimension in STEPS.values()]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "toolwire capability profile",
        "description": "What `toolwire probe` found about a model's tool calling at one "
        "endpoint (docs/probe.md).",
        "type": "object",
        "required": [
            "probeVersion",
            "toolwireVersion",
            "verifiedAt",
            "binding",
            "schemaLevel",
            "toolCallFormat",
            "supportsParallelToolUse",
            "requiresReasoningReplay",
            "supportsStreamingToolUse",
            "errorRepair",
            "evidence",
        ],
        "additionalProperties": False,
        "properties": {
            "probeVersion": {"type": "string", "minLength": 1},
            "toolwireVersion": {"type": "string", "minLength": 1},
            "verifiedAt": {
                "type": "string",
                "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$",
            },
            "binding": {
                "type": "object",
                "required": [
                    "provider",
                    "model",
                    "endpoint",
                    "dialect",
                    "servedModel",
                    "chatTemplateHash",
                ],
                "additionalProperties": False,
                "properties": {
                    "provider": {"type": "string", "minLength": 1},
                    "model": {"type": "string", "minLength": 1},
                    "endpoint": {"type": "string", "pattern": "^https?://"},
                    "dialect": {"enum": list(PROBE_DIALECTS)},
                    "servedModel": _NULLABLE_STRING,
                    "chatTemplateHash": _NULLABLE_STRING,
                },
            },
            "schemaLevel": {"enum": list(SCHEMA_LEVELS)},
            "toolCallFormat": {"enum": list(TOOL_CALL_FORMATS)},
            "supportsParallelToolUse": {"type": "boolean"},
            "requiresReasoningReplay": {"type": "boolean"},
            "supportsStreamingToolUse": {"type": "boolean"},
            "errorRepair": {"enum": list(ERROR_REPAIRS)},
            "evidence": {
                "type": "object",
                "required": names,
                "additionalProperties": False,
                "properties": {name: evidence for name in names},
            },
        },
    }


def schema_text() -> str:
    return json.dumps(profile_schema(), indent=2) + "\n"


def validate_profile(document: Any) -> list[str]:
    """Every way ``document`` breaks the schema, one line each, in path order."""
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(map(str, e.path)))
    return [f"{format_json_path(list(e.absolute_path))}: {e.message}" for e in errors]


@cache
def _validator() -> Any:
    return Draft202012Validator(profile_schema())
