"""An adapter for the plugin's tests: PassThrough that logs where each conversion ran.

Each line: the xdist worker (``-`` without xdist), the item being run (the
case id and adapter, from ``PYTEST_CURRENT_TEST``) and the direction, in
``conversions.log`` of the current folder (the pytester folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.engine.test_adapters import PassThrough
from tests.plugin.support import RECORDING_LOG


class Recording(PassThrough):
    name = "recording"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "-")
        item = os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]
        line = f"{worker}\t{item}\t{kind} {source}->{target}\n"
        # One short append per line: O_APPEND keeps two workers' lines whole.
        with Path(RECORDING_LOG).open("a", encoding="utf-8") as log:
            log.write(line)
        return payload
