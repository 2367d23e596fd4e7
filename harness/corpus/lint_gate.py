"""What the corpus keeps is linted: a good case breaks no MUST rule, and a
negative case breaks exactly the rules it declares.

A recording is evidence only of what a client sent and a server answered,
not that either was right: a client that dropped a text block on replay, an
unknown ``tool_call_id`` or a role the dialect lacks would otherwise be kept
as a good case and then judge converters by a broken example. ``toolwire
lint`` (payload rules on every request, response and stream, replay rules
across the conversation) decides, at the levels of the case's profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolwire.harness.errors import ToolwireError

SHOWN = 3  # verdicts quoted in a one-line problem; the rest are counted


@dataclass(frozen=True)
class LintOutcome:
    """The rule codes a case's file breaks, by level, with quotable lines."""

    must: tuple[str, ...]
    should: tuple[str, ...]
    lines: tuple[str, ...]  # "MUST code at path: message", MUST first
    unreadable: str | None = None  # why lint could not read the file at all

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(sorted({*self.must, *self.should}))


def lint_case_text(text: str, source: str) -> LintOutcome:
    """Lint one case file as ``toolwire lint`` would."""
    from toolwire.harness.lint.check import lint_text  # lint imports the corpus

    try:
        found = lint_text(text, source)
    except ToolwireError as error:
        return LintOutcome((), (), (), unreadable=error.message)
    ordered = sorted(found, key=lambda v: (v.level != "MUST", v.code, v.source, v.path))
    lines = tuple(_line(v.level, v.code, v.path, v.message, v.source, source) for v in ordered)
    return LintOutcome(
        must=tuple(sorted({v.code for v in found if v.level == "MUST"})),
        should=tuple(sorted({v.code for v in found if v.level != "MUST"})),
        lines=lines,
    )


def summary(lines: Sequence[str]) -> str:
    """The first verdicts, and how many more, on one line."""
    shown = "; ".join(lines[:SHOWN])
    more = len(lines) - SHOWN
    return f"{shown}; and {more} more" if more > 0 else shown


def _line(level: str, code: str, path: str, message: str, where: str, source: str) -> str:
    # Inside a file the interaction is what helps; the file name is known.
    place = where.removeprefix(f"{source}, ").removeprefix(source)
    at = " ".join(part for part in (place, f"at {path}" if path else "") if part)
    return f"{level} {code}{f' ({at})' if at else ''}: {message}"
