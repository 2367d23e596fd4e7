"""The schema files shipped in this package and the registry that links them.

Each dialect has three files, named ``<dialect>.<kind>.json``: ``request``,
``response`` and the data of one stream event (``stream-chunk`` for the
Chat Completions dialects, ``stream-event`` for anthropic-messages and
openai-responses). Files
``$ref`` each other by their ``$id`` under ``https://schemas.toolwire.invalid/``;
the ``.invalid`` host can never resolve, and the registry has no retriever,
so a reference outside the package fails loudly instead of reaching the
network.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

from referencing import Registry
from referencing.jsonschema import DRAFT202012

from toolwire.harness.errors import ToolwireError, UnsupportedDialectError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DIALECTS,
    OPENAI_RESPONSES,
    PAYLOAD_KINDS,
    PayloadKind,
)

SCHEMA_BASE_URI = "https://schemas.toolwire.invalid/"


def schema_file_name(dialect: str, kind: PayloadKind) -> str:
    """The file holding ``dialect``'s schema for ``kind``; raises on unknown names."""
    if dialect not in DIALECTS:
        raise UnsupportedDialectError(
            f"unknown dialect {dialect!r}", hint=f"use one of: {', '.join(DIALECTS)}"
        )
    if kind not in PAYLOAD_KINDS:
        raise ToolwireError(
            f"unknown payload kind {kind!r}", hint=f"use one of: {', '.join(PAYLOAD_KINDS)}"
        )
    if kind == "stream":
        suffix = (
            "stream-event" if dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES) else "stream-chunk"
        )
    else:
        suffix = kind
    return f"{dialect}.{suffix}.json"


def load_schema(dialect: str, kind: PayloadKind) -> dict[str, Any]:
    """The JSON Schema of ``dialect``'s ``kind`` payloads (a fresh copy of the cached file)."""
    # A copy, so that a caller editing the result cannot change what the
    # cached validators check.
    return copy.deepcopy(_cached_schemas()[schema_file_name(dialect, kind)])


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every schema file of the package by file name (copies), for tooling and tests."""
    return copy.deepcopy(_cached_schemas())


@cache
def _cached_schemas() -> dict[str, dict[str, Any]]:
    folder = resources.files("toolwire.harness.schemas")
    schemas: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            schemas[entry.name] = json.loads(entry.read_text(encoding="utf-8"))
    return schemas


def cached_schema(file_name: str) -> dict[str, Any]:
    """The shared cached schema dict of one file; callers must not mutate it."""
    return _cached_schemas()[file_name]


@cache
def schema_registry() -> Registry[Any]:
    """All package schemas, addressable by ``$id``; no retriever, hence no network."""
    return Registry().with_resources(
        (schema["$id"], DRAFT202012.create_resource(schema))
        for schema in _cached_schemas().values()
    )
