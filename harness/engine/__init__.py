"""The engine: runs an adapter over corpus cases and turns findings into verdicts.

``run_case(case, adapter) -> list[Verdict]`` serves both the CLI and the
pytest plugin. Pure: no pytest, no click.
"""

from toolwire.harness.engine.runner import RunOptions, run_case
from toolwire.harness.engine.verdicts import Outcome, Verdict

__all__ = ["Outcome", "RunOptions", "Verdict", "run_case"]
