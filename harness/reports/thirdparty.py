"""``python -m toolwire.harness.reports.thirdparty``: regenerate the published reports.

For each adapter of ``reports/thirdparty.toml`` (one line each: entry-point
name = optional extra), this

1. makes the extra's virtual environment ``.venv-thirdparty/<extra>/`` if it
   is missing, and installs toolwire with the extra into it
   (``pip install -e '.[<extra>]'``, again only when pyproject.toml or the
   entry's pip step changed): libraries whose dependencies clash never share
   an environment;
2. runs ``toolwire run --adapter NAME --report-dir reports/NAME --format json``
   there: exit 0 and 1 are results, and so is 3 when the results say no more
   than that some conversions raised; 2, or 3 without results, is a problem,
   reported in one line and on the comparison page;
3. renders ``report.html`` and ``badge.json`` beside ``results.json`` with
   ``toolwire report``;

then writes ``reports/index.html`` and ``reports/README.md`` comparing every
``reports/*/results.json``. ``--reference`` also runs the reference adapter
in this environment into ``reports/reference/``. Logs go to
``reports/_local/`` (git-ignored). ``make reports`` runs it all.

``--history NAME[=R1,R2,...]`` instead judges releases of one library, each
in its own environment (``[history.NAME]`` of the table;
``harness/reports/history_run.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolwire.harness.atomic_write import write_atomic
from toolwire.harness.errors import ToolwireError
from toolwire.harness.reports.comparison import (
    AdapterRow,
    not_run,
    render_index_html,
    render_index_markdown,
    run_problem,
    summarise,
)
from toolwire.harness.reports.history import HistoryError, parse_history, parse_releases
from toolwire.harness.reports.history_run import run_history

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "reports" / "thirdparty.toml"
VENVS = ROOT / ".venv-thirdparty"
REFERENCE = "reference"
DEFAULT_TIMEOUT = 30.0  # seconds per case: a library's first call loads a lot


class TableError(ToolwireError):
    """``reports/thirdparty.toml`` is not a table of adapters."""

    exit_code = 2


@dataclass(frozen=True)
class Entry:
    """One adapter of the table: its name, its extra, and an optional pip step."""

    name: str
    extra: str
    pip: tuple[str, ...] = ()


def parse_table(text: str, source: str = "reports/thirdparty.toml") -> tuple[Entry, ...]:
    """The adapters of the table, in file order; a malformed line is a one-line error."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TableError(f"{source}: not TOML: {error}") from None
    adapters = document.get("adapters")
    if not isinstance(adapters, dict) or not adapters:
        raise TableError(f"{source}: no [adapters] table", hint='add lines `name = "extra"`')
    entries = []
    for name, value in adapters.items():
        entries.append(_entry(name, value, source))
    return tuple(entries)


def _entry(name: str, value: Any, source: str) -> Entry:
    if isinstance(value, str) and value:
        return Entry(name, value)
    if isinstance(value, dict) and isinstance(value.get("extra"), str) and value["extra"]:
        pip = value.get("pip", [])
        if not (isinstance(pip, list) and all(isinstance(arg, str) for arg in pip)):
            raise TableError(f"{source}: {name}: pip must be a list of strings")
        unknown = set(value) - {"extra", "pip"}
        if unknown:
            raise TableError(f"{source}: {name}: unknown keys {', '.join(sorted(unknown))}")
        return Entry(name, value["extra"], tuple(pip))
    raise TableError(
        f"{source}: {name}: expected an extra name or {{ extra = ..., pip = [...] }}",
        hint=f'write {name} = "EXTRA"',
    )


def load_table(path: Path = TABLE) -> tuple[Entry, ...]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror}") from None
    return parse_table(text, str(path))


class Runner:
    """Runs the table's adapters and writes the reports under ``reports``."""

    def __init__(self, reports: Path, timeout: float, install: bool, logs: Path) -> None:
        self.reports = reports
        self.timeout = timeout
        self.install = install
        self.logs = logs
        self.problems: dict[str, str] = {}

    def say(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def environment(self, extra: str, pip: tuple[str, ...]) -> Path | None:
        """The ``toolwire`` of the extra's environment, installed if needed."""
        venv = VENVS / extra
        toolwire = venv / "bin" / "toolwire"
        stamp = venv / ".toolwire-installed"
        wanted = _install_fingerprint(extra, pip)
        if self.install and (not toolwire.exists() or read_text_or_empty(stamp) != wanted):
            self.say(f"installing toolwire[{extra}] into {venv.relative_to(ROOT)}")
            steps = [
                [sys.executable, "-m", "venv", str(venv)],
                [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-e", f".[{extra}]"],
            ]
            if pip:
                steps.append([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *pip])
            for step in steps:
                if self._call(step, f"install-{extra}") != 0:
                    return None
            write_atomic(stamp, wanted)
        return toolwire if toolwire.exists() else None

    def run(self, name: str, toolwire: Sequence[str]) -> None:
        """Run one adapter into ``reports/<name>/`` and render its HTML and badge."""
        folder = self.reports / name
        results = folder / "results.json"
        results.unlink(missing_ok=True)  # a stale file must not pass for this run's
        command = [*toolwire, "run", "--adapter", name, "--report-dir", str(folder)]
        command += ["--format", "json", "--timeout", str(self.timeout)]
        self.say(f"running {name}")
        code = self._call(command, name, quiet_stdout=True)
        problem = run_problem(code, results)
        if problem:
            self.problems[name] = problem
            self.say(f"  {name}: {problem}")
            return
        for format_name, file_name in (("html", "report.html"), ("badge", "badge.json")):
            render = [*toolwire, "report", str(results), "--format", format_name]
            if self._call([*render, "-o", str(folder / file_name)], f"{name}-{format_name}"):
                self.problems[name] = f"toolwire report --format {format_name} failed"

    def _call(self, command: Sequence[str], log_name: str, quiet_stdout: bool = False) -> int:
        self.logs.mkdir(parents=True, exist_ok=True)
        with (self.logs / f"{log_name}.log").open("w", encoding="utf-8") as log:
            completed = subprocess.run(
                list(command),
                cwd=ROOT,
                stdout=subprocess.DEVNULL if quiet_stdout else log,
                stderr=log,
                check=False,
            )
        return completed.returncode

    def rows(self) -> list[AdapterRow]:
        """A row per results file under ``reports``, and one per run that wrote none."""
        rows: list[AdapterRow] = []
        for results in sorted(self.reports.glob("*/results.json")):
            folder = results.parent.name
            try:
                document = json.loads(results.read_text(encoding="utf-8"))
                rows.append(summarise(folder, document))
            except (OSError, ValueError, KeyError, TypeError) as error:
                rows.append(not_run(folder, f"unreadable results.json: {error}"))
        known = {row.folder for row in rows}
        rows += [not_run(n, p) for n, p in sorted(self.problems.items()) if n not in known]
        return rows

    def write_index(self) -> None:
        rows = self.rows()
        generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        write_atomic(self.reports / "index.html", render_index_html(rows, generated))
        write_atomic(self.reports / "README.md", render_index_markdown(rows, generated))


def _install_fingerprint(extra: str, pip: tuple[str, ...]) -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(json.dumps([extra, *pip]).encode())
    return digest.hexdigest()


def read_text_or_empty(path: Path) -> str:
    """A stamp file's text, empty when it is missing or unreadable."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m toolwire.harness.reports.thirdparty", description=__doc__
    )
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this adapter (repeatable)")  # fmt: skip
    parser.add_argument("--reference", action="store_true",
                        help="also run the reference adapter into reports/reference/")  # fmt: skip
    parser.add_argument("--no-install", action="store_true",
                        help="use the environments as they are")  # fmt: skip
    parser.add_argument("--index-only", action="store_true",
                        help="only rewrite reports/index.html and README.md")  # fmt: skip
    parser.add_argument("--history", metavar="NAME[=R1,R2,...]",
                        help="judge releases of [history.NAME] (or these releases) instead, "
                        "each in its own environment")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    parser.add_argument("--table", type=Path, default=TABLE)
    options = parser.parse_args(argv)
    reports = ROOT / "reports"
    runner = Runner(reports, options.timeout, not options.no_install, reports / "_local" / "logs")
    try:
        entries = load_table(options.table)
        if options.history:
            return _history(runner, options.history, options.table, entries, options.index_only)
    except (TableError, HistoryError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    unknown = set(options.only) - {entry.name for entry in entries} - {REFERENCE}
    if unknown:
        print(f"error: not in {options.table.name}: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if not options.index_only:
        if options.reference or REFERENCE in options.only:
            runner.run(REFERENCE, [sys.executable, "-m", "toolwire.harness"])
        for entry in entries:
            if options.only and entry.name not in options.only:
                continue
            toolwire = runner.environment(entry.extra, entry.pip)
            if toolwire is None:
                runner.problems[entry.name] = f"toolwire[{entry.extra}] could not be installed"
                continue
            runner.run(entry.name, [str(toolwire)])
    runner.write_index()
    for name, problem in sorted(runner.problems.items()):
        print(f"problem: {name}: {problem}", file=sys.stderr)
    return 1 if runner.problems else 0


def _history(runner: Runner, option: str, table: Path, entries: Sequence[Entry],
             index_only: bool) -> int:  # fmt: skip
    spec = parse_releases(option, parse_history(table.read_text(encoding="utf-8"), str(table)))
    adapters = [entry.name for entry in entries if entry.extra == spec.extra]
    return run_history(runner, ROOT, VENVS, spec, adapters, index_only)


if __name__ == "__main__":
    raise SystemExit(main())
