"""Payloads with wrong types at every level: the oracle parses or says why.

For the smallest bundled payload of each dialect and kind, every value at
every JSON path (the root included) is replaced by a value of each other JSON
type. The codec must either parse the result or raise WireFormatError, never
another exception; it must not change its input; and the payload rules must
not crash on what it parsed (checked on a fixed sample, to keep the test
quick). docs/hostile-input.md, rows P1-P3.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.registry import PAYLOAD_CHECKS
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS, PayloadKind
from toolwire.harness.payloads import SourcePayload, case_payloads, parse_payload

REPLACEMENTS: tuple[Any, ...] = (None, True, 0, 1.5, "x", [], {})
RULES_EVERY = 5  # judge every 5th parsed mutation with the payload rules

Path = tuple[str | int, ...]


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def _paths(value: Any, path: Path = ()) -> Iterator[Path]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _smallest_payloads() -> dict[tuple[str, PayloadKind], SourcePayload]:
    found: dict[tuple[str, PayloadKind], SourcePayload] = {}
    for case in load_corpus(bundled_corpus_root()):
        if case.is_negative:
            continue
        for kind in case.payload_kinds:
            for source in case_payloads(case, kind):
                key = (case.dialect, kind)
                size = len(json.dumps(source.raw))
                if key not in found or size < len(json.dumps(found[key].raw)):
                    found[key] = source
    return found


SMALLEST = _smallest_payloads()


def _mutations(raw: Any) -> Iterator[tuple[Path, Any, Any]]:
    """(path, mutated payload, replacement); the payload is changed in place
    and restored after each step, so no copy is made per mutation."""
    for path in list(_paths(raw)):
        if not path:
            for replacement in REPLACEMENTS:
                if _json_type(replacement) != _json_type(raw):
                    yield path, copy.deepcopy(replacement), replacement
            continue
        parent = raw
        for key in path[:-1]:
            parent = parent[key]
        original = parent[path[-1]]
        for replacement in REPLACEMENTS:
            if _json_type(replacement) == _json_type(original):
                continue
            parent[path[-1]] = copy.deepcopy(replacement)
            try:
                yield path, raw, replacement
            finally:
                parent[path[-1]] = original


def test_every_dialect_and_kind_has_a_payload_to_mutate() -> None:
    assert set(SMALLEST) == {(d, k) for d in DIALECTS for k in PAYLOAD_KINDS}


@pytest.mark.parametrize("key", sorted(SMALLEST), ids=lambda key: f"{key[0]}-{key[1]}")
def test_wrong_types_give_wire_format_error_or_a_parse(key: tuple[str, PayloadKind]) -> None:
    dialect, kind = key
    source = SMALLEST[key]
    raw = copy.deepcopy(source.raw)
    before = json.dumps(raw, sort_keys=True)
    crashes: list[str] = []
    counts = {"parsed": 0, "refused": 0, "judged": 0}
    for path, mutated, replacement in _mutations(raw):
        snapshot = json.dumps(mutated, sort_keys=True)
        try:
            parsed = parse_payload(
                dialect,
                kind,
                mutated,
                source.under_test.profile,
                source.under_test.tools,
            )
        except WireFormatError:
            counts["refused"] += 1
            continue
        except Exception as error:
            crashes.append(f"{path} = {replacement!r}: {type(error).__name__}: {error}")
            continue
        finally:
            if json.dumps(mutated, sort_keys=True) != snapshot:
                crashes.append(f"{path} = {replacement!r}: the codec changed its input")
        counts["parsed"] += 1
        if counts["parsed"] % RULES_EVERY:
            continue
        counts["judged"] += 1
        for code, check in PAYLOAD_CHECKS.items():
            rule = RULES_BY_CODE[code]
            if rule.level_for(parsed.profile) is None or not rule.applies_to_dialect(dialect):
                continue
            try:
                check(parsed)
            except Exception as error:
                crashes.append(f"{path} = {replacement!r}: rule {code} crashed: {error!r}")
    assert json.dumps(raw, sort_keys=True) == before  # every mutation was undone
    assert crashes == [], "\n".join(crashes[:20])
    # Both outcomes occur: the mutations reach shapes the codec must refuse,
    # and places (extra fields, text) where any type is kept for the rules.
    assert counts["refused"] > 0
    assert counts["parsed"] + counts["refused"] >= 30


def test_a_mutation_the_codec_refuses_names_its_path() -> None:
    source = SMALLEST[("openai-chat", "request")]
    raw = copy.deepcopy(source.raw)
    raw["messages"][0] = 42
    with pytest.raises(WireFormatError) as caught:
        parse_payload("openai-chat", "request", raw, "openai")
    assert caught.value.path == "messages[0]"
