"""The built wheel, installed alone into a clean environment, is toolwire and only toolwire.

One test, so that under pytest-xdist the wheel is built and installed once:
the build (pip wheel), a fresh virtual environment without toolwire's
development install, the wheel installed there with its dependencies from the
package index pip is configured with (pip's cache makes this quick after the
first time), then `toolwire run` on the bundled corpus and the imports a user
makes, all run outside the checkout so nothing is imported from it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.support.real_transcripts import PROJECT_ROOT

DIST_INFO = re.compile(r"toolwire-[^/]+\.dist-info")


def _run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    # PYTHONPATH would let the checkout in; PYTHONWARNINGS quiets setuptools' notes.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONWARNINGS"] = "ignore"
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _build_wheel(out: Path) -> Path:
    built = _run(
        [sys.executable, "-m", "pip", "wheel", str(PROJECT_ROOT), "--no-deps", "-q", "-w", "."],
        cwd=out,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = out.glob("toolwire-*.whl")
    return wheel


def _check_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not DIST_INFO.fullmatch(top)} == {"toolwire"}
    cases = {
        p.relative_to(PROJECT_ROOT / "corpus").as_posix()
        for p in (PROJECT_ROOT / "corpus").rglob("*.yaml")
    }
    assert cases and {f"toolwire/_corpus/{case}" for case in cases} <= names
    schemas = {p.name for p in (PROJECT_ROOT / "harness" / "schemas").glob("*.json")}
    assert schemas and {f"toolwire/harness/schemas/{name}" for name in schemas} <= names
    public = {"toolwire/__init__.py", "toolwire/py.typed", "toolwire/conformance/catalogue.py"}
    assert public <= names
    # The rule pages, for `toolwire rule CODE` offline.
    pages = {
        p.relative_to(PROJECT_ROOT / "docs" / "rules").as_posix()
        for p in (PROJECT_ROOT / "docs" / "rules").rglob("*.md")
    }
    assert len(pages) > 50 and {f"toolwire/_rule_pages/{page}" for page in pages} <= names


def test_the_wheel_installs_alone_and_runs_the_bundled_corpus(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    _check_contents(wheel)

    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    assert made.returncode == 0, made.stderr[-2000:]
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    # This environment's pip installs into the new one: no pip bootstrap there.
    installed = _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheel)],
        cwd=tmp_path,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]

    run = _run([str(bin_dir / "toolwire"), "run", "--adapter", "reference"], cwd=tmp_path)
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    assert "PASS: exit 0" in run.stdout

    # A rule's page, offline, from the installed wheel: the committed page.
    page = _run([str(bin_dir / "toolwire"), "rule", "pairing.orphan_result"], cwd=tmp_path)
    assert page.returncode == 0, page.stderr[-2000:]
    committed = (PROJECT_ROOT / "docs" / "rules" / "pairing" / "orphan_result.md").read_text()
    assert page.stdout.startswith(committed)

    for generic in ("harness", "conformance", "corpus"):  # toolwire-rename: keep
        imported = _run([str(python), "-c", f"import {generic}"], cwd=tmp_path)
        assert imported.returncode != 0, f"`import {generic}` works from the installed wheel"
        assert f"No module named '{generic}'" in imported.stderr

    public = _run(
        [
            str(python),
            "-c",
            "from toolwire import UnsupportedConversion, load_adapter, __version__\n"
            "print(issubclass(UnsupportedConversion, Exception), load_adapter('reference').name)",
        ],
        cwd=tmp_path,
    )
    assert public.returncode == 0, public.stderr[-2000:]
    assert public.stdout.split() == ["True", "reference"]
