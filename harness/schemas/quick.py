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

A schema using a keyword not handled here (or an ``$id`` below its root,
which would move the base of its references) compiles to None: jsonschema
alone judges it, as before. tests/conformance/test_schema_quick.py holds the two in
step on the corpus, on adapters' outputs and on mutated payloads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema._utils import equal  # the equality jsonschema's const and enum use

from harness.model import PayloadKind
from harness.schemas.loading import (
    _cached_schemas,
    cached_schema,
    schema_file_name,
    schema_registry,
)

Predicate = Callable[[Any], bool]

_TYPES = Draft202012Validator.TYPE_CHECKER
# Keywords jsonschema validates with (it ignores the rest: $comment, title...).
_VALIDATING = frozenset(Draft202012Validator.VALIDATORS)
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
# The type checker's answer for a value of one of these exact types holds for
# every value of that type (a float's answer to "integer" depends on its
# value: floats and any other type always ask the checker).
_EXACT_SAMPLES: tuple[Any, ...] = ({}, [], "", False, None, 1)


class _Unsupported(Exception):
    """The schema uses something this module does not decide: leave it to jsonschema."""


def _always(_instance: Any) -> bool:
    return True


def _never(_instance: Any) -> bool:
    return False


def _is(name: str) -> Predicate:
    answers = {type(sample): bool(_TYPES.is_type(sample, name)) for sample in _EXACT_SAMPLES}

    def check(instance: Any) -> bool:
        answer = answers.get(type(instance))
        return bool(_TYPES.is_type(instance, name)) if answer is None else answer

    return check


_IS_OBJECT, _IS_ARRAY, _IS_STRING, _IS_NUMBER = (
    _is("object"),
    _is("array"),
    _is("string"),
    _is("number"),
)


def _all_of(predicates: Sequence[Predicate]) -> Predicate:
    if not predicates:
        return _always
    if len(predicates) == 1:
        return predicates[0]
    bound = tuple(predicates)

    def check(instance: Any) -> bool:
        # Plain loops here and below: all() over a generator costs more per call.
        for predicate in bound:  # noqa: SIM110
            if not predicate(instance):
                return False
        return True

    return check


class _Compiler:
    def __init__(self, roots: Iterable[Any]) -> None:
        # The files' root schemas: the only places an $id may stand.
        self._roots = {id(root) for root in roots}
        # Referenced schemas by identity: each dict sits in one file (one
        # resource, one base), so its identity names it; the cell breaks cycles.
        self._targets: dict[int, list[Predicate]] = {}

    def compile(self, schema: Any, resolver: Any) -> Predicate:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise _Unsupported(f"a schema that is a {type(schema).__name__}")
        if "$id" in schema and id(schema) not in self._roots:
            raise _Unsupported("an $id below a file's root")
        unknown = (set(schema) & _VALIDATING) - _HANDLED
        if unknown:
            raise _Unsupported(f"keywords {sorted(unknown)}")
        # Cheap, often decisive tests first; for a valid instance all of them run.
        order = ("type", "const", "enum", "required", "properties", "items")
        keys = [key for key in order if key in schema]
        keys += [key for key in schema if key in _HANDLED and key not in order]
        return _all_of([self._keyword(key, schema[key], schema, resolver) for key in keys])

    def _keyword(self, key: str, value: Any, schema: Mapping[str, Any], resolver: Any) -> Predicate:
        if key == "type":
            return _type(value)
        if key == "const":
            return _const(value)
        if key == "enum":
            return _enum(value)
        if key == "required":
            return _required(value)
        if key == "properties":
            return _properties({n: self.compile(s, resolver) for n, s in value.items()})
        if key == "items":
            return _items(value if isinstance(value, bool) else self.compile(value, resolver))
        if key in ("allOf", "anyOf"):
            parts = [self.compile(s, resolver) for s in value]
            return _all_of(parts) if key == "allOf" else _any_of(parts)
        if key == "not":
            inner = self.compile(value, resolver)
            return lambda instance: not inner(instance)
        if key == "if":
            return self._if(value, schema, resolver)
        if key == "$ref":
            return self._ref(value, resolver)
        return _scalar_keyword(key, value)

    def _if(self, value: Any, schema: Mapping[str, Any], resolver: Any) -> Predicate:
        condition = self.compile(value, resolver)
        then = self.compile(schema["then"], resolver) if "then" in schema else _always
        otherwise = self.compile(schema["else"], resolver) if "else" in schema else _always
        return lambda instance: then(instance) if condition(instance) else otherwise(instance)

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


def _type(names: Any) -> Predicate:
    wanted = [names] if isinstance(names, str) else list(names)
    tests = [_is(name) for name in wanted]
    return tests[0] if len(tests) == 1 else lambda instance: any(t(instance) for t in tests)


def _const(expected: Any) -> Predicate:
    if type(expected) is str:
        # equal(instance, a string) is `instance is expected or instance == expected`.
        return lambda instance: instance is expected or instance == expected
    return lambda instance: bool(equal(instance, expected))


def _enum(options: Any) -> Predicate:
    values = list(options)
    strings = frozenset(v for v in values if type(v) is str)

    def check(instance: Any) -> bool:
        if type(instance) is str and len(strings) == len(values):
            return instance in strings
        return any(equal(each, instance) for each in values)

    return check


def _required(names: Sequence[str]) -> Predicate:
    wanted = tuple(names)

    def check(instance: Any) -> bool:
        if not _IS_OBJECT(instance):
            return True
        for name in wanted:  # noqa: SIM110
            if name not in instance:
                return False
        return True

    return check


def _properties(table: Mapping[str, Predicate]) -> Predicate:
    def as_jsonschema(instance: Any) -> bool:
        if not _IS_OBJECT(instance):
            return True
        return all(predicate(instance[n]) for n, predicate in table.items() if n in instance)

    def check(instance: Any) -> bool:
        if type(instance) is not dict:
            return as_jsonschema(instance)
        # The same (name, value) pairs jsonschema visits, found from the
        # instance's side (a payload has fewer keys than a schema names),
        # while every key is a plain string.
        for name, value in instance.items():
            if type(name) is not str:
                return as_jsonschema(instance)
            predicate = table.get(name)
            if predicate is not None and not predicate(value):
                return False
        return True

    return check


def _items(inner: Predicate | bool) -> Predicate:
    def check(instance: Any) -> bool:
        if not _IS_ARRAY(instance) or len(instance) == 0:
            return True
        if inner is True:
            return True
        if inner is False:
            return False
        for item in instance:  # noqa: SIM110
            if not inner(item):
                return False
        return True

    return check


def _any_of(parts: Sequence[Predicate]) -> Predicate:
    bound = tuple(parts)
    return lambda instance: any(part(instance) for part in bound)


def _scalar_keyword(key: str, limit: Any) -> Predicate:
    if key == "minimum":
        return lambda instance: not (_IS_NUMBER(instance) and instance < limit)
    if key == "maximum":
        return lambda instance: not (_IS_NUMBER(instance) and instance > limit)
    if key == "minLength":
        return lambda instance: not (_IS_STRING(instance) and len(instance) < limit)
    if key == "maxLength":
        return lambda instance: not (_IS_STRING(instance) and len(instance) > limit)
    if key == "minItems":
        return lambda instance: not (_IS_ARRAY(instance) and len(instance) < limit)
    if key == "pattern":
        search = re.compile(limit).search
        return lambda instance: not (_IS_STRING(instance) and not search(instance))
    raise _Unsupported(f"keyword {key!r}")


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
