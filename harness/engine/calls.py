"""What the engine passed to an adapter and what came back, call by call.

``RunOptions.on_call`` hears of each ``convert`` call the engine makes (and
of each exchange through a proxy) as it settles: ``toolwire convert`` shows
them, so what it prints is what ``toolwire run`` does, not a second copy of
the engine's logic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

# "failed": a proxy's exchange that broke on the wire (refused, reset, cut short).
CallOutcome: TypeAlias = Literal[
    "returned", "raised", "declined", "timed out", "unusable", "failed"
]


@dataclass(frozen=True)
class AdapterCall:
    """One call: ``convert(payload, kind, source, target[, request=request])``,
    or for a proxy one exchange (``exchange`` set: what it forwarded and returned)."""

    where: str  # as verdicts name it: "request a->b, interaction 1 request"
    interaction: int  # 1-based
    kind: str
    source: str
    target: str
    payload: Any  # equal to what the adapter was given (it got a private copy)
    outcome: CallOutcome
    request: Any = None  # the request= context, when the adapter was given one
    output: Any = None  # what it returned (for a proxy: the exchange summary)
    error: str | None = None  # why it gave nothing usable: raised, declined, ...
    exchange: bool = False


OnCall: TypeAlias = Callable[[AdapterCall], None]
