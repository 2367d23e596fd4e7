"""The package list in pyproject.toml: every package declared, all under `toolwire`."""

from __future__ import annotations

import tomllib
from typing import Any

from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.corpus.loader import BUNDLED_PACKAGE
from toolwire.harness.rule_pages import PAGES_PACKAGE

# The repository's folders and the names they take in the installed package.
FOLDERS = {"toolwire.harness": "harness", "toolwire.conformance": "conformance"}


def _config() -> dict[str, Any]:
    return tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _declared_packages() -> set[str]:
    return set(_config()["tool"]["setuptools"]["packages"])


def test_every_python_package_in_the_tree_is_declared() -> None:
    on_disk = {"toolwire"} | {
        ".".join([package, *init.parent.relative_to(PROJECT_ROOT / folder).parts])
        for package, folder in FOLDERS.items()
        for init in (PROJECT_ROOT / folder).rglob("__init__.py")
    }
    declared = _declared_packages()
    assert on_disk - declared == set(), "add these to [tool.setuptools] packages"
    # the two data packages: the corpus and the rule pages
    assert declared - on_disk == {BUNDLED_PACKAGE, PAGES_PACKAGE}, "declared but not on disk"


def test_nothing_is_installed_under_a_generic_top_level_name() -> None:
    assert {name.split(".")[0] for name in _declared_packages()} == {"toolwire"}
    package_dir = _config()["tool"]["setuptools"]["package-dir"]
    assert package_dir == {**FOLDERS, BUNDLED_PACKAGE: "corpus", PAGES_PACKAGE: "docs/rules"}


def test_the_corpus_ships_as_the_data_package_the_loader_reads() -> None:
    assert BUNDLED_PACKAGE == "toolwire._corpus"
    assert BUNDLED_PACKAGE in _declared_packages()
    assert _config()["tool"]["setuptools"]["package-data"][BUNDLED_PACKAGE] == ["**/*.yaml"]


def test_every_entry_point_points_into_the_namespace() -> None:
    project = _config()["project"]
    targets = {
        "scripts": project["scripts"],
        **{group: entries for group, entries in project["entry-points"].items()},
    }
    outside = {
        f"{group}: {name} = {target}"
        for group, entries in targets.items()
        for name, target in entries.items()
        if not target.startswith("toolwire.")
    }
    assert outside == set()


def test_the_checkout_links_reach_the_folders_the_wheel_maps() -> None:
    """From a checkout, toolwire/harness is harness/ (pytest, mypy, ruff read it there)."""
    links = {**FOLDERS, BUNDLED_PACKAGE: "corpus"}
    for package, folder in links.items():
        link = PROJECT_ROOT / package.replace(".", "/")
        assert link.is_symlink(), f"{link} should be a link to ../{folder}"
        assert link.resolve() == (PROJECT_ROOT / folder).resolve()
