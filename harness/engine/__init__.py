"""The engine: runs an adapter over corpus cases and turns findings into verdicts.

``run_case(case, adapter) -> list[Verdict]`` serves both the CLI and the
pytest plugin. Pure: no pytest, no click.

The names below are imported when first used: importing a submodule (say
``engine.verdicts``, to read verdicts an xdist worker sent) then does not
import the runner and every rule family with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolwire.harness.engine.options import RunOptions
    from toolwire.harness.engine.runner import run_case
    from toolwire.harness.engine.verdicts import Outcome, Verdict

__all__ = ["Outcome", "RunOptions", "Verdict", "run_case"]

_HOMES = {
    "RunOptions": "options",
    "run_case": "runner",
    "Outcome": "verdicts",
    "Verdict": "verdicts",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
