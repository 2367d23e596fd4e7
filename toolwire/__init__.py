"""toolwire: conformance tests for LLM tool-calling wire formats.

What a converter's author imports (docs/adapters.md, "What you import"):

- ``UnsupportedConversion``: raise it for a payload the target cannot express;
- ``Adapter``: the protocol an adapter implements (``name``, ``version``,
  ``directions``, ``convert``), with ``Direction`` for its directions;
- ``load_adapter(spec)``: resolve a spec to a checked ``LoadedAdapter``;
- ``RunResult`` and ``Verdict``: what a run returns, one verdict per rule and case;
- ``ToolwireError`` and ``AdapterLoadError``: the errors a user can cause;
- ``__version__``.

Everything else lives in ``toolwire.harness`` (model, codecs, corpus, engine,
command line), ``toolwire.conformance`` (the rules) and ``toolwire._corpus``
(the bundled cases, data only). In the repository those are the top-level
folders harness/, conformance/ and corpus/, mapped here at build time
(pyproject.toml, [tool.setuptools.package-dir]).

Names load on first use: the pytest plugin imports this package in every pytest
session, and a session that does not use toolwire must not pay for the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from toolwire.harness import __version__, load_adapter

if TYPE_CHECKING:
    from toolwire.harness.adapters.base import (
        Adapter,
        Direction,
        LoadedAdapter,
        UnsupportedConversion,
    )
    from toolwire.harness.engine.session import RunResult
    from toolwire.harness.engine.verdicts import Verdict
    from toolwire.harness.errors import AdapterLoadError, ToolwireError

# public name -> the module that defines it
_LAZY = {
    "Adapter": "toolwire.harness.adapters.base",
    "Direction": "toolwire.harness.adapters.base",
    "LoadedAdapter": "toolwire.harness.adapters.base",
    "UnsupportedConversion": "toolwire.harness.adapters.base",
    "RunResult": "toolwire.harness.engine.session",
    "Verdict": "toolwire.harness.engine.verdicts",
    "AdapterLoadError": "toolwire.harness.errors",
    "ToolwireError": "toolwire.harness.errors",
}

__all__ = [
    "Adapter",
    "AdapterLoadError",
    "Direction",
    "LoadedAdapter",
    "RunResult",
    "ToolwireError",
    "UnsupportedConversion",
    "Verdict",
    "__version__",
    "load_adapter",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # the next access skips this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
