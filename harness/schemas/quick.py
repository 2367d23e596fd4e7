"""A fast "valid" for the payloads that are, with jsonschema's semantics.

jsonschema's validator explains every violation, and that costs: about half
a millisecond per chat message, most of a conformance run's time, although
nearly every payload a run judges is valid and the explanation is empty.
This module compiles each package schema once into plain predicates, for
the keywords the package schemas use, each written as jsonschema 4's
keyword function decides validity (its type checker, its ``equal``,
``re.search``, the same comparisons). The answer is only ever "valid" or
"not known to be valid": ``validate_payload`` trusts a "valid" and asks
jsonschema for everything else, so every violation is still found, worded
and ordered by jsonschema itself.

The predicates themselves live in toolwire.harness.schemas._quick_predicates. Two
shapes the package schemas are made of get a fused form: an object schema
(type, required and properties decided in one pass over a dict's keys) and
a tagged union (an allOf of ``if: {K is "x"}, then: ...`` branches, where
a dict's K picks its branches with one lookup). Each keeps the general
composition for every instance it does not handle itself.

A schema using a keyword not handled here (or an ``$id`` below its root,
which would move the base of its references) compiles to None: jsonschema
alone judges it, as before. tests/conformance/test_schema_quick.py holds the two in
step on the corpus, on adapters' outputs and on mutated payloads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from toolwire.harness.model import PayloadKind
from toolwire.harness.schemas import _quick_predicates as kw
from toolwire.harness.schemas._quick_predicates import VALIDATING, Predicate, Unsupported
from toolwire.harness.schemas.loading import (
    _cached_schemas,
    cached_schema,
    schema_file_name,
    schema_registry,
)

_HANDLED = frozenset(
    {
        "$ref",
        "allOf",
        "anyOf",
        "const",
        "enum",
        "if",
        "items",
        "maxLength",
        "maximum",
        "minItems",
        "minLength",
        "minimum",
        "not",
        "pattern",
        "properties",
        "required",
        "type",
    }
)


class _Compiler:
    def __init__(self, roots: Iterable[Any]) -> None:
        # The files' root schemas: the only places an $id may stand.
        self._roots = {id(root) for root in roots}
        # Referenced schemas by identity: each dict sits in one file (one
        # resource, one base), so its identity names it; the cell breaks cycles.
        self._targets: dict[int, list[Predicate]] = {}

    def compile(self, schema: Any, resolver: Any) -> Predicate:
        if schema is True:
            return kw.always
        if schema is False:
            return kw.never
        if not isinstance(schema, dict):
            raise Unsupported(f"a schema that is a {type(schema).__name__}")
        if "$id" in schema and id(schema) not in self._roots:
            raise Unsupported("an $id below a file's root")
        unknown = (set(schema) & VALIDATING) - _HANDLED
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        # Cheap, often decisive tests first; for a valid instance all of them run.
        order = ("type", "const", "enum", "required", "properties", "items")
        keys = [key for key in order if key in schema]
        keys += [key for key in schema if key in _HANDLED and key not in order]
        compiled: dict[str, Predicate] = {}
        table: dict[str, Predicate] = {}
        for key in keys:
            if key == "properties":
                table = {n: self.compile(s, resolver) for n, s in schema[key].items()}
                compiled[key] = kw.properties(table)
            else:
                compiled[key] = self._keyword(key, schema[key], schema, resolver)
        general = kw.all_of(list(compiled.values()))
        # An object schema (the common case) gets a fused test for dicts:
        # "type" answers alike for every dict, so it is asked once, here.
        fuse = "required" in compiled or "properties" in compiled
        if not fuse or ("type" in compiled and not compiled["type"]({})):
            return general
        rest = kw.all_of(
            [p for k, p in compiled.items() if k not in ("type", "required", "properties")]
        )
        properties = schema.get("properties", {})
        entries = {n: (kw.sure_types(properties[n]), p) for n, p in table.items()}
        return kw.object_test(tuple(schema.get("required", ())), entries, rest, general)

    def _keyword(self, key: str, value: Any, schema: Mapping[str, Any], resolver: Any) -> Predicate:
        if key == "type":
            return kw.type_of(value)
        if key == "const":
            return kw.const(value)
        if key == "enum":
            return kw.enum(value)
        if key == "required":
            return kw.required(value)
        if key == "items":
            if isinstance(value, bool):
                return kw.items(value, frozenset())
            return kw.items(self.compile(value, resolver), kw.sure_types(value))
        if key == "allOf":
            return self._all_of(value, resolver)
        if key == "anyOf":
            return kw.any_of([self.compile(s, resolver) for s in value])
        if key == "not":
            inner = self.compile(value, resolver)
            return lambda instance: not inner(instance)
        if key == "if":
            return self._if(value, schema, resolver)
        if key == "$ref":
            return self._ref(value, resolver)
        return kw.scalar_keyword(key, value)

    def _all_of(self, members: Any, resolver: Any) -> Predicate:
        # The package's tagged unions: allOf of {"if": <field K is "x">, "then":
        # ...}. For a dict whose K is a string, only the branches naming that
        # string can apply: one lookup instead of a test per branch.
        parts: list[Predicate] = []
        branches: dict[str, list[Predicate]] = {}
        others: list[Predicate] = []
        field: str | None = None
        for member in members:
            tag = _discriminator(member)
            if tag is None or (field is not None and tag[0] != field):
                parts.append(self.compile(member, resolver))
                others.append(parts[-1])
                continue
            field = tag[0]
            condition = self.compile(member["if"], resolver)
            then = self.compile(member["then"], resolver)
            parts.append(kw.if_then(condition, then, kw.always))
            for name in tag[1]:
                branches.setdefault(name, []).append(then)
        general = kw.all_of(parts)
        if field is None:
            return general
        return kw.dispatch(
            field, {n: kw.all_of(p) for n, p in branches.items()}, kw.all_of(others), general
        )

    def _if(self, value: Any, schema: Mapping[str, Any], resolver: Any) -> Predicate:
        condition = self.compile(value, resolver)
        then = self.compile(schema["then"], resolver) if "then" in schema else kw.always
        otherwise = self.compile(schema["else"], resolver) if "else" in schema else kw.always
        return kw.if_then(condition, then, otherwise)

    def _ref(self, ref: str, resolver: Any) -> Predicate:
        resolved = resolver.lookup(ref)
        key = id(resolved.contents)
        cell = self._targets.get(key)
        if cell is None:
            cell = self._targets[key] = []
            cell.append(self.compile(resolved.contents, resolved.resolver))
            return cell[0]
        if cell:
            return cell[0]
        return lambda instance: cell[0](instance)  # a cycle: compiled by the time it runs


def _discriminator(member: Any) -> tuple[str, frozenset[str]] | None:
    """(K, the strings) for {"if": {"properties": {K: {"const"|"enum": strings}},
    "required": [K]}, "then": ...}: true exactly when a dict's K is one of them."""
    if not (isinstance(member, dict) and _validating(member) == {"if"}):
        return None
    if "then" not in member or "else" in member:
        return None
    condition = member["if"]
    if not (isinstance(condition, dict) and _validating(condition) == {"properties", "required"}):
        return None
    properties, required = condition["properties"], condition["required"]
    if not (isinstance(properties, dict) and len(properties) == 1 and required == list(properties)):
        return None
    [(field, test)] = properties.items()
    if not (isinstance(field, str) and isinstance(test, dict)):
        return None
    keywords = _validating(test)
    if keywords == {"const"}:
        values = [test["const"]]
    elif keywords == {"enum"} and isinstance(test["enum"], list):
        values = test["enum"]
    else:
        return None
    if not values or any(type(value) is not str for value in values):
        return None
    return field, frozenset(values)


def _validating(schema: Mapping[str, Any]) -> set[str]:
    # "$id" counts: compile() must meet it (and refuse it) as before.
    return set(schema) & (VALIDATING | {"$id"})


@cache
def quick_validity(dialect: str, kind: PayloadKind) -> Predicate | None:
    """A predicate that is True only for payloads jsonschema finds valid, or None
    when the schema uses something it does not decide."""
    schema = cached_schema(schema_file_name(dialect, kind))
    try:
        resolver = schema_registry().resolver(base_uri=schema["$id"])
        return _Compiler(_cached_schemas().values()).compile(schema, resolver)
    except Exception:  # anything unexpected: jsonschema alone, as before
        return None
