"""The broken-adapter matrix: filled by the self-test, printed in the terminal summary."""

from __future__ import annotations

from collections.abc import Mapping

# adapter name -> (the code it breaks, {code that failed or warned: outcome})
MATRIX: dict[str, tuple[str, dict[str, str]]] = {}


def record(adapter: str, breaks: str, flagged: Mapping[str, str]) -> None:
    MATRIX[adapter] = (breaks, dict(flagged))


def matrix_lines() -> list[str]:
    """One line per adapter: its code, then every code it made fail (or warn)."""
    lines = []
    for adapter in sorted(MATRIX):
        breaks, flagged = MATRIX[adapter]
        codes = ", ".join(
            code if outcome == "fail" else f"{code} ({outcome})"
            for code, outcome in sorted(flagged.items(), key=lambda item: item[0] != breaks)
        )
        lines.append(f"{adapter:28} {breaks:32} -> {codes or '(nothing)'}")
    return lines
