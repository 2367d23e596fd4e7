"""The wheel ships every package: the explicit list in pyproject.toml must not drift."""

from __future__ import annotations

import tomllib

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
