"""The one error the reference adapter raises for input it will not convert."""

from __future__ import annotations

from toolwire.harness.errors import ToolwireError


class ConversionError(ToolwireError, ValueError):
    """A payload the target dialect cannot carry without guessing.

    It is a ``ValueError`` (what the adapter protocol's callers expect from a
    converter refusing its input) and a ``ToolwireError`` (one line, with a
    hint), so the engine reports it as an ``error`` verdict with its message.
    """
