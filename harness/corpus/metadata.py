"""Reading and checking the `toolwire:` block of a case file.

Every check raises ``CorpusError`` naming the file, the key (as a dotted
path such as ``toolwire.features[1]``) and how to fix it.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.harness.corpus.case import Expect, ExpectedCall, Provenance, frozen_mapping
from toolwire.harness.corpus.vocabulary import (
    EXPECT_KEYS,
    FEATURES,
    ID_PATTERN,
    METADATA_FORMAT,
    PROFILES,
    PROVENANCE_FIELDS,
    PROVENANCE_KINDS,
    TOOLWIRE_OPTIONAL_KEYS,
    TOOLWIRE_REQUIRED_KEYS,
    unknown_value_hint,
)
from toolwire.harness.errors import CorpusError
from toolwire.harness.model import DIALECTS

_ID = re.compile(ID_PATTERN)
_URL = re.compile(r"^https?://[^\s/]+\S*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Metadata:
    id: str
    description: str
    features: tuple[str, ...]
    dialect: str
    profile: str
    provenance: Provenance
    twins: Mapping[str, str]
    expect: Expect


def parse_metadata(block: Any, source: str, expected_id: str) -> Metadata:
    """Check a `toolwire:` block; ``expected_id`` is the id the file's path gives."""
    if block is None:
        raise CorpusError(
            source,
            "has no toolwire block",
            f"add a top-level `toolwire:` block with format: 1 and id: {expected_id}",
        )
    mapping = _mapping(block, "toolwire", source)
    _check_keys(mapping, "toolwire", source, TOOLWIRE_REQUIRED_KEYS + TOOLWIRE_OPTIONAL_KEYS)
    for key in TOOLWIRE_REQUIRED_KEYS:
        if key not in mapping:
            raise CorpusError(source, f"toolwire.{key} is missing", _missing_hint(key, expected_id))

    _check_format(mapping["format"], source)
    case_id = _check_id(mapping["id"], source, expected_id)
    dialect = _one_of(mapping["dialect"], "toolwire.dialect", DIALECTS, source)
    return Metadata(
        id=case_id,
        description=_description(mapping["description"], source),
        features=_features(mapping["features"], source),
        dialect=dialect,
        profile=_one_of(mapping["profile"], "toolwire.profile", PROFILES, source),
        provenance=_provenance(mapping["provenance"], source),
        twins=_twins(mapping.get("twins"), dialect, source),
        expect=_expect(mapping.get("expect"), source),
    )


def _missing_hint(key: str, expected_id: str) -> str:
    examples = {
        "format": "add `format: 1`",
        "id": f"add `id: {expected_id}` (the file's path below the corpus root)",
        "description": "add a one-line `description:` saying what the case shows",
        "features": f"add `features: [...]` from: {', '.join(FEATURES)}",
        "dialect": f"add `dialect:` one of: {', '.join(DIALECTS)}",
        "profile": f"add `profile:` one of: {', '.join(PROFILES)}",
        "provenance": "add `provenance: {kind: documented, url: ...}` "
        f"(kinds: {', '.join(PROVENANCE_KINDS)})",
    }
    return examples[key]


def _check_format(value: Any, source: str) -> None:
    if value == METADATA_FORMAT and type(value) is int:
        return
    if type(value) is int and value > METADATA_FORMAT:
        raise CorpusError(
            source,
            f"toolwire.format {value} is newer than this toolwire reads ({METADATA_FORMAT})",
            "upgrade toolwire",
        )
    raise CorpusError(
        source, f"toolwire.format must be {METADATA_FORMAT}", f"write `format: {METADATA_FORMAT}`"
    )


def _check_id(value: Any, source: str, expected_id: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise CorpusError(
            source,
            "toolwire.id must be lower-case slug segments joined by '/'",
            f"use `id: {expected_id}`",
        )
    if value != expected_id:
        raise CorpusError(
            source,
            f"toolwire.id {value!r} does not match the file's path",
            f"set `id: {expected_id}`, or move the file to {value}.yaml",
        )
    return value


def _description(value: Any, source: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
        raise CorpusError(
            source,
            "toolwire.description must be one non-empty line",
            "say in one line what the case shows",
        )
    return value.strip()


def _features(value: Any, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise CorpusError(
            source,
            "toolwire.features must be a non-empty list",
            f"use features from: {', '.join(FEATURES)}",
        )
    features = tuple(
        _one_of(item, f"toolwire.features[{index}]", FEATURES, source, noun="feature")
        for index, item in enumerate(value)
    )
    duplicates = sorted({feature for feature in features if features.count(feature) > 1})
    if duplicates:
        raise CorpusError(
            source,
            f"toolwire.features lists {', '.join(duplicates)} more than once",
            "list each feature once",
        )
    return features


def _one_of(
    value: Any, where: str, valid: tuple[str, ...], source: str, noun: str | None = None
) -> str:
    if isinstance(value, str) and value in valid:
        return value
    label = noun or where.rsplit(".", 1)[-1]
    shown = repr(value) if isinstance(value, str) else f"of type {type(value).__name__}"
    raise CorpusError(
        source,
        f"{where}: unknown {label} {shown}",
        unknown_value_hint(value if isinstance(value, str) else "", valid),
    )


def _provenance(value: Any, source: str) -> Provenance:
    mapping = _mapping(value, "toolwire.provenance", source)
    kind = _one_of(
        mapping.get("kind"), "toolwire.provenance.kind", PROVENANCE_KINDS, source, noun="kind"
    )
    required = PROVENANCE_FIELDS[kind]
    _check_keys(mapping, "toolwire.provenance", source, ("kind", *required))
    missing = [key for key in required if mapping.get(key) in (None, "")]
    if missing:
        raise CorpusError(
            source,
            f"toolwire.provenance of kind {kind!r} is missing {', '.join(missing)}",
            f"a {kind} case needs: {', '.join(required)}",
        )
    fields: dict[str, str] = {}
    for key in required:
        fields[key] = _provenance_field(key, mapping[key], source)
    return Provenance(kind=kind, **fields)


def _provenance_field(key: str, value: Any, source: str) -> str:
    where = f"toolwire.provenance.{key}"
    if key == "date":
        # An unquoted YAML date arrives as a date object.
        text = value.isoformat() if isinstance(value, datetime.date) else value
        if not isinstance(text, str) or not _DATE.match(text) or not _valid_date(text):
            raise CorpusError(source, f"{where} must be a date", "write it as YYYY-MM-DD")
        return text
    if not isinstance(value, str) or not value.strip():
        raise CorpusError(source, f"{where} must be a non-empty string", f"fill in the {key}")
    if key in ("url", "endpoint") and not _URL.match(value):
        raise CorpusError(source, f"{where} must be an http(s) URL", "write the full https://… URL")
    return value


def _valid_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _twins(value: Any, dialect: str, source: str) -> Mapping[str, str]:
    if value is None:
        return frozen_mapping({})
    mapping = _mapping(value, "toolwire.twins", source)
    twins: dict[str, str] = {}
    for key, target in mapping.items():
        twin_dialect = _one_of(key, "toolwire.twins", DIALECTS, source, noun="dialect")
        where = f"toolwire.twins.{twin_dialect}"
        if twin_dialect == dialect:
            raise CorpusError(
                source,
                f"{where}: a case cannot be its own dialect's twin",
                "list twins in other dialects only",
            )
        if not isinstance(target, str) or not _ID.match(target):
            raise CorpusError(
                source, f"{where} must be a case id", "write the twin's id, e.g. parallel/two-calls"
            )
        twins[twin_dialect] = target
    return frozen_mapping(twins)


def _expect(value: Any, source: str) -> Expect:
    if value is None:
        return Expect()
    mapping = _mapping(value, "toolwire.expect", source)
    _check_keys(mapping, "toolwire.expect", source, EXPECT_KEYS)
    text = mapping.get("text")
    if text is not None and not isinstance(text, str):
        raise CorpusError(source, "toolwire.expect.text must be a string", "quote the text")
    calls = mapping.get("tool_calls")
    return Expect(
        violations=_strings(mapping.get("violations"), "toolwire.expect.violations", source),
        tool_calls=None if calls is None else _expected_calls(calls, source),
        text=text,
        xml_issues=_strings(mapping.get("xml_issues"), "toolwire.expect.xml_issues", source),
    )


def _strings(value: Any, where: str, source: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CorpusError(source, f"{where} must be a list of strings", "write [code, ...]")
    return tuple(value)


def _expected_calls(value: Any, source: str) -> tuple[ExpectedCall, ...]:
    where = "toolwire.expect.tool_calls"
    if not isinstance(value, list):
        raise CorpusError(source, f"{where} must be a list", "write [{name: ..., arguments: {}}]")
    calls = []
    for index, item in enumerate(value):
        call = _mapping(item, f"{where}[{index}]", source)
        _check_keys(call, f"{where}[{index}]", source, ("name", "arguments"))
        name, arguments = call.get("name"), call.get("arguments", {})
        if not isinstance(name, str) or not name:
            raise CorpusError(source, f"{where}[{index}].name must be a string", "name the tool")
        if not isinstance(arguments, Mapping):
            raise CorpusError(
                source, f"{where}[{index}].arguments must be a mapping", "write {param: value}"
            )
        calls.append(ExpectedCall(name=name, arguments=frozen_mapping(arguments)))
    return tuple(calls)


def _mapping(value: Any, where: str, source: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CorpusError(
            source, f"{where} must be a mapping", f"write {where} as `key: value` lines"
        )
    return value


def _check_keys(
    mapping: Mapping[str, Any], where: str, source: str, allowed: tuple[str, ...]
) -> None:
    for key in mapping:
        if key not in allowed:
            raise CorpusError(
                source, f"{where}: unknown key {key!r}", unknown_value_hint(str(key), allowed)
            )
