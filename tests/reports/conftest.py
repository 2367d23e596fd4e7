"""Real `toolwire run` results, written once per session for the report tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from toolwire.harness.cli.main import cli

ADAPTERS = {
    "reference": "reference",
    "garbage": "tests.engine.test_adapters:ReturnsGarbage",
    "renames-ids": "tests.reports.adapters:RenamesIds",
    "raises": "tests.engine.test_adapters:Raises",
}


@pytest.fixture(scope="session")
def real_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """adapter key -> the results.json `toolwire run --report-dir` wrote for it."""
    written = {}
    for key, spec in ADAPTERS.items():
        folder = tmp_path_factory.mktemp(f"run-{key}")
        result = CliRunner().invoke(
            cli, ["run", "--adapter", spec, "--report-dir", str(folder)], catch_exceptions=False
        )
        assert result.exit_code in (0, 1, 3), result.output
        written[key] = folder / "results.json"
    return written


@pytest.fixture(scope="session")
def real_documents(real_results: dict[str, Path]) -> dict[str, dict[str, Any]]:
    return {key: json.loads(path.read_text()) for key, path in real_results.items()}
