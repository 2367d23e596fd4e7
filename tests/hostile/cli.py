"""Running the real `toolwire` command in a subprocess, as a user would.

``python -m toolwire.harness`` is the command without its console script; PYTHONPATH
makes the test adapters (``tests.hostile.adapters:...``) importable. Every
run is bounded by a timeout and checked for the one thing a user must never
see: a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.real_transcripts import PROJECT_ROOT

ADAPTERS = "tests.hostile.adapters"


def toolwire(
    *args: str, timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "toolwire.harness", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd or PROJECT_ROOT,
    )
    assert "Traceback" not in result.stdout, result.stdout[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one `toolwire: error:` line a usage error prints."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("toolwire: error:")]
    assert len(lines) == 1, result.stderr
    return lines[0]
