"""Session-wide reporting for toolwire's own tests."""

from __future__ import annotations

import sys

import pytest

# pytester runs the plugin in real pytest subprocesses (tests/plugin).
pytest_plugins = ["pytester"]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    module = sys.modules.get("tests.test_real_transcripts")
    counts = getattr(module, "COUNTS", None)
    if not counts:
        return
    terminalreporter.section("real transcripts read by the oracle")
    for what in sorted(counts):
        terminalreporter.write_line(f"{counts[what]:4d} {what}")
