"""The exchange capability: what a proxy adapter offers, and what one exchange gives back.

An adapter converts one payload per call; a proxy converts a whole exchange.
An adapter whose implementation has ``front``, ``back`` and ``exchange``
(``ExchangeCapable``) is driven by the engine one interaction at a time
(toolwire.harness.engine.exchange); ``ExchangeRecord`` is what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from toolwire.harness.corpus.case import Interaction
from toolwire.harness.model import PayloadKind


@dataclass(frozen=True)
class ExchangeRecord:
    """What one exchange through a proxy produced."""

    # Request bodies the upstream received, in order (parsed JSON, or text).
    forwarded: tuple[Any, ...] = ()
    # The upstream interaction that answered (0-based), None when none did.
    served: int | None = None
    # ``served`` answered a request that matched no recording (``mismatch``
    # says why), because it is where the case is.
    by_position: bool = False
    # Why a forwarded request matched no recording (the near miss).
    mismatch: str | None = None
    # The downstream HTTP status, None when no answer arrived.
    status: int | None = None
    # The downstream body in the adapter protocol's form: a dict for a
    # response, an event list for a stream, or text that is neither.
    downstream: Any = None
    downstream_kind: PayloadKind | None = None
    content_type: str = ""
    # A transport failure, in one line.
    failure: str | None = None


@runtime_checkable
class ExchangeCapable(Protocol):
    @property
    def front(self) -> str: ...

    @property
    def back(self) -> str: ...

    def exchange(
        self, request: Any, upstream: Sequence[Interaction], timeout: float
    ) -> ExchangeRecord: ...

    # Optionally ``exchange(..., position=N)``: the interaction the case is at.
