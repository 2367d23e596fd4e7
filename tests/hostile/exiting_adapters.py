"""Adapters that try to decide how the process ends, or leave processes behind
(docs/hostile-input.md, rows A23 and A24). Loaded by spec in `toolwire run`
subprocesses: ``tests.hostile.exiting_adapters:NAME``."""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.hostile.adapters import PassThrough

# Where SpawnsHangingChild writes its child's pid (set by the test).
PID_FILE_VARIABLE = "TOOLWIRE_TEST_CHILD_PID_FILE"


class RaisesWithCleanExitHook(PassThrough):
    """Every conversion raises (exit 3), and an exit hook calls os._exit(0)."""

    name = "raises-with-clean-exit-hook"

    def __init__(self) -> None:
        atexit.register(os._exit, 0)

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise RuntimeError("broken on purpose")


class SpawnsHangingChild(PassThrough):
    """Starts a child process that never ends and waits for it."""

    name = "spawns-hanging-child"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        Path(os.environ[PID_FILE_VARIABLE]).write_text(str(child.pid), encoding="utf-8")
        child.wait()
        return payload
