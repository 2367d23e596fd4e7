"""Errors the harness reports to users: each says what was wrong and how to fix it.

Every error a user can cause derives from ``ToolwireError``; the command line
prints ``str(error)`` on one line and never a traceback.
"""

from __future__ import annotations


class ToolwireError(Exception):
    """Base of every user-facing error. ``hint`` says how to fix it;
    ``exit_code`` is what the command line exits with."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message} ({self.hint})"
        return self.message


class WireFormatError(ToolwireError):
    """A payload does not have the shape its dialect requires.

    ``path`` is a JSON path into the payload, such as
    ``messages[2].tool_calls[0].function``.
    """

    def __init__(self, path: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{path or '$'}: {message}", hint)
        self.path = path


class CorpusError(ToolwireError):
    """A corpus case cannot be loaded (bad YAML, wrong version, bad metadata).
    A usage error (exit 2): the input must be fixed; 1 means a rule failed."""

    exit_code = 2

    def __init__(self, source: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{source}: {message}", hint)
        self.source = source


class AdapterLoadError(ToolwireError):
    """An adapter spec names nothing usable (a usage error)."""

    exit_code = 2


class UnsupportedDialectError(ToolwireError):
    """A dialect name outside the known set."""
