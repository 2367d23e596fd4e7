"""What a check reports: one finding per violation, with enough to explain it.

A check returns an empty list when the rule holds. Each finding carries the
nearest explanation in one line ("call_1 exists at messages[2], but the result
at messages[3] references call_01"), the JSON path it points at in the judged
payload, and optionally the expected and actual values for the diff.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_MISSING = object()


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    path: str = ""
    expected: Any = _MISSING
    actual: Any = _MISSING

    @property
    def has_diff(self) -> bool:
        return self.has_expected or self.has_actual

    @property
    def has_expected(self) -> bool:
        return self.expected is not _MISSING

    @property
    def has_actual(self) -> bool:
        return self.actual is not _MISSING


def finding(
    code: str, message: str, path: str = "", expected: Any = _MISSING, actual: Any = _MISSING
) -> Finding:
    return Finding(code=code, message=message, path=path, expected=expected, actual=actual)
