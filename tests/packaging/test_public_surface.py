"""`toolwire`, the package users import: its names, as docs/adapters.md lists them."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import toolwire
from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.adapters.base import Adapter, UnsupportedConversion
from toolwire.harness.engine.session import RunResult


def _documented_block() -> str:
    page = (PROJECT_ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    section = page.split("## What you import", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "docs/adapters.md, What you import: no python block"
    return match.group(1)


def test_the_documented_imports_work_and_are_the_public_names() -> None:
    names: dict[str, object] = {}
    exec(_documented_block(), names)
    documented = {name for name in names if name != "__builtins__"}
    assert documented == set(toolwire.__all__)


def test_the_public_names_are_the_harness_objects() -> None:
    assert toolwire.UnsupportedConversion is UnsupportedConversion
    assert toolwire.Adapter is Adapter
    assert toolwire.RunResult is RunResult
    assert toolwire.load_adapter("reference").name == "reference"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        toolwire.Nothing  # noqa: B018


def test_importing_toolwire_loads_no_engine() -> None:
    """The pytest plugin imports the package in every pytest session."""
    code = "import sys, toolwire; print(sorted(m for m in sys.modules if '.engine' in m))"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert found.stdout.strip() == "[]"
