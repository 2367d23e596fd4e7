"""Session-wide reporting for toolwire's own tests."""

from __future__ import annotations

import os
import sys

import pytest

# pytester runs the plugin in real pytest subprocesses (tests/plugin).
pytest_plugins = ["pytester"]

# `toolwire run` judges no adapter nobody named (tests/cli/test_run_config.py):
# the suite names the reference through the environment, as a project would
# through its CI settings, for the many tests that run it on the reference.
# The tests of the usage error remove it.
os.environ.setdefault("TOOLWIRE_ADAPTER", "reference")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    module = sys.modules.get("tests.test_real_transcripts")
    counts = getattr(module, "COUNTS", None)
    if not counts:
        return
    terminalreporter.section("real transcripts read by the oracle")
    for what in sorted(counts):
        terminalreporter.write_line(f"{counts[what]:4d} {what}")
