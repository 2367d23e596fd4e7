"""Views of a payload computed once, however many checks read them.

Some forty checks judge each payload, and many of them start from the same
derived view (the timeline of calls and results, the semantic messages, the
call and result references with their paths). ``by_identity`` keeps a view
for the few objects judged last, keyed by the object's identity: the
payloads and conversations are immutable once parsed, so a view cannot go
stale, and an entry holds its object so that its id() is never reused while
the entry lives. Views must be immutable too (tuples of frozen values): the
same one is handed to every caller.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")

# A payload's checks run one after the other; a conversion or round trip
# compares two or three payloads. A few entries cover that.
REMEMBERED = 8


def by_identity(function: Callable[[K], V]) -> Callable[[K], V]:
    """``function`` remembered for the last REMEMBERED arguments, by identity.

    Oldest out first. Called some ten thousand times per corpus run, so no
    lock: each step is one atomic dict operation, and two threads racing on
    the same object at worst compute its view twice."""
    memo: dict[int, tuple[Any, V]] = {}

    @wraps(function)
    def remembered(subject: K) -> V:
        entry = memo.get(id(subject))
        if entry is not None and entry[0] is subject:
            return entry[1]
        value = function(subject)
        memo[id(subject)] = (subject, value)
        while len(memo) > REMEMBERED:
            try:
                del memo[next(iter(memo))]
            except (KeyError, RuntimeError, StopIteration):  # another thread got there first
                break
        return value

    return remembered
