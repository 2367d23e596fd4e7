"""Writing case files: readable YAML whose bodies survive byte for byte.

JSON bodies are written as literal blocks of pretty JSON (only when the
pretty form parses back to the same value; otherwise they stay as they were),
event streams as literal blocks that keep every newline. Any body the literal
style cannot carry exactly (trailing spaces, carriage returns, control
characters) falls back to a double-quoted string. The dump is checked by
loading it back before it is returned.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from toolwire.harness import json_text
from toolwire.harness.atomic_write import FileExistsRefused, write_atomic
from toolwire.harness.corpus.case import Case, Expect, Interaction, Provenance
from toolwire.harness.corpus.vocabulary import CASSETTE_VERSION, METADATA_FORMAT
from toolwire.harness.errors import CorpusError


class _Literal(str):
    """A string to write in literal block style."""


class _Quoted(str):
    """A string to write double-quoted (exact, if less readable)."""


class _Flow(list[Any]):
    """A list to write on one line: `[a, b]`."""


class _FlowMap(dict[str, Any]):
    """A mapping to write on one line: `{code: 200, message: OK}`."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # never write &id001 anchors: each case reads top to bottom


_Dumper.add_representer(
    _Literal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v), style="|")
)
_Dumper.add_representer(
    _Quoted, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v), style='"')
)
_Dumper.add_representer(
    _Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", list(v), flow_style=True)
)
_Dumper.add_representer(
    _FlowMap, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", dict(v), flow_style=True)
)


def dump_case(
    metadata: Mapping[str, Any], interactions: Sequence[Interaction], *, pretty_json: bool = True
) -> str:
    """A case file's text: `version`, the `toolwire:` block, `interactions`.

    ``metadata`` is the `toolwire:` block (``case_metadata`` builds it from a
    Case). With ``pretty_json=False`` JSON bodies are kept exactly as given.
    """
    bodies = [_bodies(interaction, pretty_json) for interaction in interactions]
    quoted: set[tuple[int, str]] = set()
    for _attempt in range(2):
        document = {
            "version": CASSETTE_VERSION,
            "toolwire": _metadata_block(metadata),
            "interactions": [
                _interaction_block(interaction, bodies[index], quoted, index)
                for index, interaction in enumerate(interactions)
            ],
        }
        text = yaml.dump(
            document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000
        )
        mismatched = _mismatched_bodies(text, bodies)
        if not mismatched:
            return text
        quoted |= mismatched
    raise CorpusError("dump_case", "a body did not survive the YAML round trip", "report this bug")


def case_metadata(case: Case) -> dict[str, Any]:
    """The `toolwire:` block of a loaded case, for ``dump_case``."""
    block: dict[str, Any] = {
        "format": METADATA_FORMAT,
        "id": case.id,
        "description": case.description,
        "features": list(case.features),
        "dialect": case.dialect,
        "profile": case.profile,
        "provenance": _provenance_block(case.provenance),
    }
    if case.twins:
        block["twins"] = dict(case.twins)
    block["expect"] = _expect_block(case.expect)
    return block


def write_case(path: Path, text: str, overwrite: bool = False) -> None:
    """Write ``text`` to ``path`` atomically (toolwire.harness.atomic_write). An
    existing file is kept unless ``overwrite``."""
    try:
        write_atomic(path, text, overwrite=overwrite)
    except FileExistsRefused:
        raise CorpusError(
            str(path), "already exists", "pass overwrite=True (or --force) to replace it"
        ) from None


def _bodies(interaction: Interaction, pretty_json: bool) -> tuple[str | None, str]:
    request = interaction.request_body_text
    response = interaction.response_body_text
    if pretty_json:
        request = None if request is None else _pretty_json(request)
        if not interaction.is_stream():
            response = _pretty_json(response)
    return request, response


def _pretty_json(text: str) -> str:
    """Indented JSON when that is the same value; else ``text`` unchanged."""
    try:
        value = json_text.loads(text, object_pairs_hook=_refuse_duplicate_keys)
        pretty = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
        pretty.encode("utf-8")  # a lone surrogate cannot be written to a file
    except (ValueError, UnicodeEncodeError, RecursionError):
        return text
    return pretty if json.loads(pretty) == value else text


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A payload with a repeated key is kept raw: reformatting would drop one.
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _body_scalar(text: str | None, force_quoted: bool) -> Any:
    if text is None:
        return None
    if force_quoted:
        return _Quoted(text)
    # PyYAML itself falls back to quoting when a literal cannot hold the text.
    return _Literal(text) if text else text


def _interaction_block(
    interaction: Interaction,
    bodies: tuple[str | None, str],
    quoted: set[tuple[int, str]],
    index: int,
) -> dict[str, Any]:
    request_body, response_body = bodies
    return {
        "request": {
            "method": interaction.method,
            "uri": interaction.uri,
            "headers": _headers(interaction.request_headers),
            "body": _body_scalar(request_body, (index, "request") in quoted),
        },
        "response": {
            "status": _FlowMap(code=interaction.status_code, message=interaction.status_message),
            "headers": _headers(interaction.response_headers),
            "body": {"string": _body_scalar(response_body, (index, "response") in quoted)},
        },
    }


def _headers(headers: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    return {name: _Flow(values) for name, values in headers.items()}


def _mismatched_bodies(text: str, bodies: list[tuple[str | None, str]]) -> set[tuple[int, str]]:
    loaded = yaml.safe_load(text)
    mismatched = set()
    for index, (request, response) in enumerate(bodies):
        interaction = loaded["interactions"][index]
        if interaction["request"]["body"] != request:
            mismatched.add((index, "request"))
        if interaction["response"]["body"]["string"] != response:
            mismatched.add((index, "response"))
    return mismatched


def _metadata_block(metadata: Mapping[str, Any]) -> dict[str, Any]:
    block = dict(metadata)
    if isinstance(block.get("features"), list | tuple):
        block["features"] = _Flow(block["features"])
    if block.get("expect") == {}:
        block["expect"] = _FlowMap()
    return block


def _provenance_block(provenance: Provenance) -> dict[str, Any]:
    fields = ("kind", "url", "endpoint", "model", "date", "recorder")
    return {key: getattr(provenance, key) for key in fields if getattr(provenance, key)}


def _expect_block(expect: Expect) -> dict[str, Any]:
    block: dict[str, Any] = {}
    if expect.violations:
        block["violations"] = _Flow(expect.violations)
    if expect.tool_calls is not None:
        block["tool_calls"] = [
            {"name": call.name, "arguments": dict(call.arguments)} for call in expect.tool_calls
        ]
    if expect.text is not None:
        block["text"] = expect.text
    if expect.xml_issues:
        block["xml_issues"] = _Flow(expect.xml_issues)
    return block
