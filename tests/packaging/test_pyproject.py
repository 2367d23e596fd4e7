"""The wheel ships every package: the explicit list in pyproject.toml must not drift."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from tests.support.real_transcripts import PROJECT_ROOT


def _declared_packages() -> set[str]:
    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["packages"])


def test_every_python_package_in_the_tree_is_declared() -> None:
    on_disk = {
        ".".join(init.parent.relative_to(PROJECT_ROOT).parts)
        for top in ("harness", "conformance")
        for init in (PROJECT_ROOT / top).rglob("__init__.py")
    }
    assert on_disk - _declared_packages() == set()


def test_the_corpus_ships_as_a_data_package() -> None:
    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["package-dir"]["harness._corpus"] == "corpus"
    assert "harness._corpus" in _declared_packages()


def test_the_built_wheel_carries_the_corpus_and_the_schemas(tmp_path: Path) -> None:
    """A wheel (what `pip install toolwire` gets) holds every case and schema."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(PROJECT_ROOT),
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (wheel,) = tmp_path.glob("toolwire-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    cases = {
        p.relative_to(PROJECT_ROOT / "corpus").as_posix()
        for p in (PROJECT_ROOT / "corpus").rglob("*.yaml")
    }
    assert cases and {f"harness/_corpus/{case}" for case in cases} <= names
    schemas = {p.name for p in (PROJECT_ROOT / "harness" / "schemas").glob("*.json")}
    assert schemas and {f"harness/schemas/{name}" for name in schemas} <= names
