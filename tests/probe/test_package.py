"""The probe package stays a pure core: no click, no pytest."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_probe_loads_neither_click_nor_pytest() -> None:
    code = (
        "import sys, toolwire.harness.probe, toolwire.harness.probe.recording;"
        "import toolwire.harness.probe.schema; "
        "print(sorted(m for m in ('click', 'pytest') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert found.stdout.strip() == "[]"
