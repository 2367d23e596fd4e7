"""The predicates toolwire.harness.schemas.quick compiles a schema into, one per
keyword (or fused group of keywords), each deciding validity as jsonschema 4's
keyword function does: its type checker, its ``equal``, ``re.search``, the
same comparisons. A predicate may only say True where jsonschema would.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema._utils import equal  # the equality jsonschema's const and enum use

Predicate = Callable[[Any], bool]

_TYPES = Draft202012Validator.TYPE_CHECKER
# Keywords jsonschema validates with (it ignores the rest: $comment, title...).
VALIDATING = frozenset(Draft202012Validator.VALIDATORS)
# The type checker's answer for a value of one of these exact types holds for
# every value of that type (a float's answer to "integer" depends on its
# value: floats and any other type always ask the checker).
_EXACT_SAMPLES: tuple[Any, ...] = ({}, [], "", False, None, 1)


class Unsupported(Exception):
    """The schema uses something this module does not decide: leave it to jsonschema."""


def always(_instance: Any) -> bool:
    return True


def never(_instance: Any) -> bool:
    return False


def type_test(*names: str) -> Predicate:
    """The "type" keyword: ``instance`` is of one of ``names``."""
    answers = {type(sample): _is_type(sample, names) for sample in _EXACT_SAMPLES}

    def check(instance: Any) -> bool:
        answer = answers.get(type(instance))
        return _is_type(instance, names) if answer is None else answer

    return check


def _is_type(instance: Any, names: Sequence[str]) -> bool:
    return any(_TYPES.is_type(instance, name) for name in names)


def sure_types(schema: Any) -> frozenset[type]:
    """The exact Python types every value of which ``schema`` accepts, when
    it holds nothing but "type" (else none: its predicate decides)."""
    if not (isinstance(schema, dict) and set(schema) & (VALIDATING | {"$id"}) == {"type"}):
        return frozenset()
    names = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
    return frozenset(type(s) for s in _EXACT_SAMPLES if _is_type(s, names))


_IS_OBJECT, _IS_ARRAY, _IS_STRING, _IS_NUMBER = (
    type_test("object"),
    type_test("array"),
    type_test("string"),
    type_test("number"),
)


def all_of(predicates: Sequence[Predicate]) -> Predicate:
    if not predicates:
        return always
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


def if_then(condition: Predicate, then: Predicate, otherwise: Predicate) -> Predicate:
    return lambda instance: then(instance) if condition(instance) else otherwise(instance)


def dispatch(
    field: str,
    branches: Mapping[str, Predicate],
    others: Predicate,
    general: Predicate,
) -> Predicate:
    """``general`` (a tagged union), deciding a dict whose ``field`` is a string
    by the branches that name it and ``others``, each an ``all_of``."""

    def check(instance: Any) -> bool:
        if type(instance) is not dict:
            return general(instance)
        tag = instance.get(field)
        if type(tag) is not str:
            return general(instance)
        return branches.get(tag, always)(instance) and others(instance)

    return check


def type_of(names: Any) -> Predicate:
    return type_test(names) if isinstance(names, str) else type_test(*names)


def const(expected: Any) -> Predicate:
    if type(expected) is str:
        # equal(instance, a string) is `instance is expected or instance == expected`.
        return lambda instance: instance is expected or instance == expected
    return lambda instance: bool(equal(instance, expected))


def enum(options: Any) -> Predicate:
    values = list(options)
    strings = frozenset(v for v in values if type(v) is str)

    def check(instance: Any) -> bool:
        if type(instance) is str and len(strings) == len(values):
            return instance in strings
        return any(equal(each, instance) for each in values)

    return check


def required(names: Sequence[str]) -> Predicate:
    wanted = tuple(names)

    def check(instance: Any) -> bool:
        if not _IS_OBJECT(instance):
            return True
        for name in wanted:  # noqa: SIM110
            if name not in instance:
                return False
        return True

    return check


def properties(table: Mapping[str, Predicate]) -> Predicate:
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


def object_test(
    required: tuple[str, ...],
    table: Mapping[str, tuple[frozenset[type], Predicate]],
    rest: Predicate,
    general: Predicate,
) -> Predicate:
    """``general`` (every keyword of the schema), with "type", "required" and
    "properties" decided in one pass for a plain dict with string keys; a
    property whose schema is a bare "type" needs no call for a value of an
    exact type it accepts."""

    def check(instance: Any) -> bool:
        if type(instance) is not dict:
            return general(instance)
        for name in required:
            if name not in instance:
                return False
        for name, value in instance.items():
            if type(name) is not str:
                return general(instance)
            entry = table.get(name)
            if entry is not None and type(value) not in entry[0] and not entry[1](value):
                return False
        return rest(instance)

    return check


def items(inner: Predicate | bool, sure: frozenset[type]) -> Predicate:
    def check(instance: Any) -> bool:
        if (type(instance) is not list and not _IS_ARRAY(instance)) or len(instance) == 0:
            return True
        if inner is True:
            return True
        if inner is False:
            return False
        for item in instance:  # noqa: SIM110
            if type(item) not in sure and not inner(item):
                return False
        return True

    return check


def any_of(parts: Sequence[Predicate]) -> Predicate:
    bound = tuple(parts)
    return lambda instance: any(part(instance) for part in bound)


def scalar_keyword(key: str, limit: Any) -> Predicate:
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
    raise Unsupported(f"keyword {key!r}")
