"""The self-test's terminal summary: which codes each broken adapter made fail."""

from __future__ import annotations

import pytest

from tests.selftest.matrix import MATRIX, matrix_lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not MATRIX:
        return
    terminalreporter.section("broken adapters x failing codes")
    terminalreporter.write_line(f"{'adapter':28} {'breaks':32} -> codes that failed (or warned)")
    for line in matrix_lines():
        terminalreporter.write_line(line)
