"""The adapter protocol: how toolwire drives a converter.

An adapter declares the directions it supports, each a triple
``(kind, source_dialect, target_dialect)`` with kind in
``request | response | stream``, and converts one payload per call.
A direction it does not declare is reported ``unsupported``, never ``pass``.

Payloads are plain JSON values: a request or response body as a dict; for
``stream``, a list of events ``{"event": name-or-None, "data": chunk}``
where ``data`` is the parsed JSON of the event, or the string ``"[DONE]"``.
A stream converter may return the same list form or an event-stream text.

Two optional extensions (docs/adapters.md): a ``convert`` that accepts a
``request`` keyword is given, for a response or stream, the request it
answers (a Qwen XML parser needs the request's tool schemas); an adapter
with ``id_mapping(payload, kind, source, target)`` declares the ids a
conversion changes, so ``pairing.id_changed`` accepts that mapping.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

from toolwire.harness.errors import AdapterLoadError
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS, PayloadKind


class UnsupportedConversion(Exception):
    """Raised by an adapter for one payload its target dialect cannot express
    faithfully (for example a 128-character tool name toward openai-chat, whose
    names stop at 64). The verdict is ``unsupported``: never ``pass``, and not
    ``error``, since the adapter said so on purpose. The message says why."""


class Direction(NamedTuple):
    kind: PayloadKind
    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.source}->{self.target}"


@runtime_checkable
class Adapter(Protocol):
    """What a converter provides. ``directions`` may be any iterable of triples."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def directions(self) -> Iterable[tuple[str, str, str]]: ...

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any: ...


@dataclass(frozen=True)
class LoadedAdapter:
    """An adapter after its declaration was checked: what the engine drives."""

    spec: str
    name: str
    version: str
    directions: frozenset[Direction]
    implementation: Adapter
    accepts_request: bool = field(default=False, compare=False)

    def supports(self, direction: Direction) -> bool:
        return direction in self.directions

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        if request is not None and self.accepts_request:
            return self.implementation.convert(  # type: ignore[call-arg]
                payload, kind, source, target, request=request
            )
        return self.implementation.convert(payload, kind, source, target)

    def convert_direction(self, payload: Any, direction: Direction, request: Any = None) -> Any:
        return self.convert(payload, direction.kind, direction.source, direction.target, request)

    def id_mapping(self, payload: Any, direction: Direction) -> Mapping[str, str] | None:
        """The ids the adapter declares this conversion changes, if it declares any."""
        declare = getattr(self.implementation, "id_mapping", None)
        if not callable(declare):
            return None
        mapping = declare(payload, direction.kind, direction.source, direction.target)
        return mapping if isinstance(mapping, Mapping) else None


def check_adapter(candidate: object, spec: str) -> LoadedAdapter:
    """Check that ``candidate`` honours the protocol; say exactly what is missing."""
    missing = [
        attribute
        for attribute in ("name", "version", "directions", "convert")
        if not hasattr(candidate, attribute)
    ]
    if missing:
        raise AdapterLoadError(
            f"adapter {spec!r} is not an adapter: it lacks {', '.join(missing)}",
            hint="see docs/adapters.md for the protocol (name, version, directions, convert)",
        )
    adapter: Adapter = candidate  # type: ignore[assignment]
    if not callable(adapter.convert):
        raise AdapterLoadError(f"adapter {spec!r}: convert is not callable")
    for attribute in ("name", "version"):
        if not isinstance(getattr(adapter, attribute), str):
            raise AdapterLoadError(f"adapter {spec!r}: {attribute} must be a string")
    return LoadedAdapter(
        spec=spec,
        name=adapter.name,
        version=adapter.version,
        directions=_check_directions(adapter.directions, spec),
        implementation=adapter,
        accepts_request=_accepts_keyword(adapter.convert, "request"),
    )


def _accepts_keyword(function: Any, name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    return name in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
    )


def _check_directions(declared: object, spec: str) -> frozenset[Direction]:
    try:
        triples = list(declared)  # type: ignore[call-overload]
    except TypeError:
        raise AdapterLoadError(
            f"adapter {spec!r}: directions must be an iterable of (kind, source, target) triples"
        ) from None
    directions: set[Direction] = set()
    for triple in triples:
        if not (isinstance(triple, tuple | list) and len(triple) == 3):
            raise AdapterLoadError(
                f"adapter {spec!r}: direction {triple!r} is not a (kind, source, target) triple"
            )
        kind, source, target = triple
        if kind not in PAYLOAD_KINDS:
            raise AdapterLoadError(
                f"adapter {spec!r}: direction {tuple(triple)!r} has unknown kind {kind!r}",
                hint=f"use one of: {', '.join(PAYLOAD_KINDS)}",
            )
        for dialect in (source, target):
            if dialect not in DIALECTS:
                raise AdapterLoadError(
                    f"adapter {spec!r}: direction {tuple(triple)!r} names unknown dialect "
                    f"{dialect!r}",
                    hint=f"use one of: {', '.join(DIALECTS)}",
                )
        directions.add(Direction(kind, source, target))
    if not directions:
        raise AdapterLoadError(f"adapter {spec!r} declares no directions")
    return frozenset(directions)
