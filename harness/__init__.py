"""toolwire's harness: everything but the rules (model, codecs, corpus, adapters, engine, commands).

Kept import-light: the pytest plugin lives in this package, and a pytest
session that does not use toolwire must not pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from toolwire.harness.adapters.base import LoadedAdapter

__all__ = ["__version__", "load_adapter"]


def load_adapter(spec: str) -> LoadedAdapter:
    """Resolve an adapter spec (``reference``, an entry-point name,
    ``package.module:attribute``) to an adapter. See ``docs/adapters.md``."""
    from toolwire.harness.adapters.loader import load_adapter as _load

    return _load(spec)


def __getattr__(name: str) -> Any:
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
