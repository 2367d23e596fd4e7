"""Comparing visible text the way every rule does.

Converters join several text blocks into one string, with ``""``, ``"\n"`` or
``"\n\n"`` between them (docs/conventions.md). Two sequences of text pieces say
the same when they differ only by such separators at a piece boundary.
"""

from __future__ import annotations

from collections.abc import Sequence


def same_text(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether two sequences of text pieces say the same, up to the separators
    docs/conventions.md accepts: where one side has a piece boundary (or the
    text starts or ends), the other may have "", "\\n" or "\\n\\n" instead."""
    left, right = "".join(expected), "".join(actual)
    if left == right:
        return True
    if left.replace("\n", "") != right.replace("\n", ""):
        return False  # only newlines may differ
    return _match_with_boundaries(left, _boundaries(expected), right, _boundaries(actual))


def _boundaries(pieces: Sequence[str]) -> frozenset[int]:
    offsets = {0}
    total = 0
    for piece in pieces:
        total += len(piece)
        offsets.add(total)
    return frozenset(offsets)


def _match_with_boundaries(
    a: str, a_marks: frozenset[int], b: str, b_marks: frozenset[int]
) -> bool:
    # Depth-first search over (i, j, used_a, used_b): at a boundary of one side
    # the other side may skip one or two newlines, once per boundary.
    stack = [(0, 0, False, False)]
    seen: set[tuple[int, int, bool, bool]] = set()
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        i, j, used_a, used_b = state
        if i == len(a) and j == len(b):
            return True
        if i < len(a) and j < len(b) and a[i] == b[j]:
            stack.append((i + 1, j + 1, False, False))
        if i in a_marks and not used_a:
            for skip in (1, 2):
                if b[j : j + skip] == "\n" * skip:
                    stack.append((i, j + skip, True, used_b))
        if j in b_marks and not used_b:
            for skip in (1, 2):
                if a[i : i + skip] == "\n" * skip:
                    stack.append((i + skip, j, used_a, True))
    return False
