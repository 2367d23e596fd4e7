"""``python -m toolwire.harness.reports.thirdparty --history NAME[=R1,R2,...]``: judge releases.

For each release of ``[history.NAME]`` (``reports/thirdparty.toml``), in
order and one at a time (installs are heavy):

1. the environment ``.venv-thirdparty/<package>-<release>/``, made on first
   use: toolwire (editable, so every release runs the same toolwire code)
   and the requirements of the table's extra, its pin of ``<package>``
   replaced by ``<package>==<release>``, from PyPI;
2. every adapter of ``[adapters]`` with that extra, run there into
   ``reports/history/NAME/<release>/<adapter>/results.json`` (git-ignored,
   large), of which ``summary.json`` beside it keeps every verdict's outcome
   (committed);

then ``reports/history/NAME/README.md`` and ``index.html`` are rendered from
the summaries and ``reports/history/NAME/fixes.toml``. ``--index-only``
re-renders the page from the summaries alone.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from toolwire.harness.reports.comparison import run_problem
from toolwire.harness.reports.history import (
    HistoryError,
    HistorySpec,
    RunSummary,
    diff_releases,
    fixes_without_change,
    parse_fixes,
    summarise_run,
    summary_from_json,
    summary_to_json,
)
from toolwire.harness.reports.history_page import Page, render_history_html, render_history_markdown

_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
TITLES = {"litellm": "LiteLLM"}


class Calls(Protocol):
    """What the history needs of ``thirdparty.Runner``."""

    reports: Path
    timeout: float
    install: bool

    def say(self, line: str) -> None: ...

    def _call(self, command: Sequence[str], log_name: str, quiet_stdout: bool = False) -> int: ...


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def release_requirements(pyproject: dict[str, Any], spec: HistorySpec, release: str) -> list[str]:
    """The extra's requirements with ``<package>==<release>`` in place of its pin."""
    extras = pyproject.get("project", {}).get("optional-dependencies", {})
    if spec.extra not in extras:
        raise HistoryError(f"history.{spec.name}: pyproject.toml has no extra {spec.extra!r}")
    out = [f"{spec.package}=={release}"]
    for requirement in extras[spec.extra]:
        match = _REQUIREMENT_NAME.match(requirement)
        if match and _normal(match.group(1)) == _normal(spec.package):
            continue
        out.append(requirement)
    return out


def installed_version(python: Path, package: str) -> str:
    """The version of ``package`` in the environment of ``python``, or "" (also
    when that environment cannot import ``toolwire``: an install made before
    the modules moved under the ``toolwire`` namespace is made again)."""
    if not python.exists():
        return ""
    probe = "import importlib.metadata as m, sys, toolwire.harness; print(m.version(sys.argv[1]))"
    completed = subprocess.run(
        [str(python), "-c", probe, package], capture_output=True, text=True, check=False
    )
    return completed.stdout.strip() if completed.returncode == 0 else ""


def environment(runner: Calls, venvs: Path, spec: HistorySpec, release: str,
                pyproject: dict[str, Any]) -> Path | None:  # fmt: skip
    """The ``toolwire`` of the release's environment, installed when needed."""
    venv = venvs / f"{spec.package}-{release}"
    python, toolwire = venv / "bin" / "python", venv / "bin" / "toolwire"
    ready = toolwire.exists() and installed_version(python, spec.package) == release
    if runner.install and not ready:
        requirements = release_requirements(pyproject, spec, release)
        runner.say(f"installing {' '.join(requirements)} into {venv}")
        steps = [
            [sys.executable, "-m", "venv", str(venv)],
            [str(python), "-m", "pip", "install", "-q", "-e", ".", *requirements],
        ]
        for number, command in enumerate(steps):
            if runner._call(command, f"install-{spec.package}-{release}-{number}") != 0:
                return None
    if not toolwire.exists() or installed_version(python, spec.package) != release:
        return None
    return toolwire


def history_dir(reports: Path, spec: HistorySpec) -> Path:
    return reports / "history" / spec.name


def run_release(runner: Calls, spec: HistorySpec, release: str, adapters: Sequence[str],
                toolwire: Path | None) -> None:  # fmt: skip
    """Run every adapter on one release; write each one's summary.json (or problem.txt)."""
    for adapter in adapters:
        folder = history_dir(runner.reports, spec) / release / adapter
        folder.mkdir(parents=True, exist_ok=True)
        results, summary = folder / "results.json", folder / "summary.json"
        problem_file = folder / "problem.txt"
        for stale in (results, summary, problem_file):
            stale.unlink(missing_ok=True)  # nothing of an older run passes for this one's
        if toolwire is None:
            problem = f"{spec.package}=={release} could not be installed"
        else:
            command = [str(toolwire), "run", "--adapter", adapter, "--report-dir", str(folder)]
            command += ["--format", "json", "--timeout", str(runner.timeout)]
            runner.say(f"running {adapter} on {spec.package} {release}")
            code = runner._call(command, f"{adapter}-{release}", quiet_stdout=True)
            problem = run_problem(code, results)
        if problem:
            runner.say(f"  {adapter} {release}: {problem}")
            problem_file.write_text(problem + "\n", encoding="utf-8")
            continue
        document = json.loads(results.read_text(encoding="utf-8"))
        summary.write_text(
            json.dumps(summary_to_json(summarise_run(document)), indent=1, sort_keys=True) + "\n",
            encoding="utf-8",
        )


def read_runs(folder: Path, spec: HistorySpec) -> dict[str, dict[str, RunSummary | str]]:
    """release -> adapter -> summary (or the run's problem), from the files on disk."""
    runs: dict[str, dict[str, RunSummary | str]] = {}
    for release in spec.releases:
        runs[release] = {}
        for adapter_folder in sorted(p for p in (folder / release).glob("*") if p.is_dir()):
            summary, problem = adapter_folder / "summary.json", adapter_folder / "problem.txt"
            if summary.exists():
                try:
                    data = json.loads(summary.read_text(encoding="utf-8"))
                    runs[release][adapter_folder.name] = summary_from_json(data)
                except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
                    runs[release][adapter_folder.name] = f"unreadable summary.json: {error}"
            elif problem.exists():
                runs[release][adapter_folder.name] = problem.read_text(encoding="utf-8").strip()
    return runs


def write_page(reports: Path, spec: HistorySpec) -> Path:
    """Render ``reports/history/NAME/README.md`` and ``index.html``; return the folder."""
    folder = history_dir(reports, spec)
    fixes_file = folder / "fixes.toml"
    fixes = (
        parse_fixes(fixes_file.read_text(encoding="utf-8"), str(fixes_file))
        if fixes_file.exists()
        else ()
    )
    runs = read_runs(folder, spec)
    steps = tuple(diff_releases(runs, fixes))
    page = Page(
        title=TITLES.get(spec.name, spec.name),
        command=f"python -m toolwire.harness.reports.thirdparty --history {spec.name}",
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        releases=spec.releases,
        runs=runs,
        steps=steps,
        unmatched_fixes=tuple(fixes_without_change(steps, fixes)),
    )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text(render_history_markdown(page), encoding="utf-8")
    (folder / "index.html").write_text(render_history_html(page), encoding="utf-8")
    return folder


def run_history(runner: Calls, root: Path, venvs: Path, spec: HistorySpec,
                adapters: Sequence[str], index_only: bool) -> int:  # fmt: skip
    """Judge every release of ``spec`` (unless ``index_only``), then write the page."""
    if not adapters:
        raise HistoryError(
            f"history.{spec.name}: no adapter of [adapters] has extra {spec.extra!r}"
        )
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    if not index_only:
        for release in spec.releases:
            toolwire = environment(runner, venvs, spec, release, pyproject)
            run_release(runner, spec, release, adapters, toolwire)
    folder = write_page(runner.reports, spec)
    runner.say(f"wrote {folder / 'README.md'} and index.html")
    missing = [
        f"{release}/{adapter}"
        for release in spec.releases
        for adapter in adapters
        if not (history_dir(runner.reports, spec) / release / adapter / "summary.json").exists()
    ]
    for item in missing:
        runner.say(f"problem: no results for {item}")
    return 1 if missing else 0
