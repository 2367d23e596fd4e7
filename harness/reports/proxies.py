"""``python -m toolwire.harness.reports.proxies``: toolwire against real HTTP proxies.

``make integration`` runs it after ``make reports``. For each proxy of
``harness/reports/proxy_setups.py`` (``PROXIES``) it

1. installs the pinned release into ``.venv-integration/<name>/`` if missing
   (a Python virtual environment from PyPI, or an npm prefix; git-ignored);
2. writes the proxy's configuration (``integration/``) into a private
   temporary folder that is also the proxy's ``HOME``, so no user file is read
   or written;
3. runs ``toolwire run --adapter http://127.0.0.1?front=...&back=...
   --proxy-cmd ...`` into ``reports/<report>/`` and renders ``report.html``,
   ``badge.json`` and ``summary.md`` beside ``results.json``, and
   ``proxy.json`` (package, version, command, whether the network was cut);

then rewrites ``reports/index.html`` and ``reports/README.md``, where the
proxies sit beside the library adapters. Every proxy listens on 127.0.0.1 and
its only upstream is toolwire's replay server on 127.0.0.1. Where the machine
allows it (``unshare``), the whole run happens in a fresh network namespace
that has nothing but a loopback interface, so no request can leave the
machine whatever a proxy tries (``--isolation``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from toolwire.harness.adapters.http_adapter import KEEP_LOG_VARIABLE
from toolwire.harness.atomic_write import write_atomic
from toolwire.harness.reports.comparison import AdapterRow
from toolwire.harness.reports.proxy_setups import (
    PROXIES,
    ROOT,
    VENVS,
    IntegrationError,
    Proxy,
    Run,
    adapter_spec,
    check_loopback,
    proxy_command,
    write_config,
)
from toolwire.harness.reports.thirdparty import Runner, read_text_or_empty

DEFAULT_TIMEOUT = 60.0  # seconds per case: a proxy's first request loads a lot
# Runs the command in a new user and network namespace whose only interface,
# loopback, is brought up first: nothing else is reachable from inside.
ISOLATE = ("unshare", "--user", "--map-root-user", "--net", "sh", "-c",
           'ip link set lo up && exec "$@"', "sh")  # fmt: skip


# --- installing ------------------------------------------------------------------------


def install_steps(proxy: Proxy, venv: Path) -> list[list[str]]:
    """The commands that install ``proxy`` into ``venv``."""
    if proxy.installer == "npm":
        return [["npm", "install", "--no-save", "--prefix", str(venv), proxy.package]]
    python = str(venv / "bin" / "python")
    return [
        [sys.executable, "-m", "venv", str(venv)],
        [python, "-m", "pip", "install", "-q", proxy.package],
    ]


def installed_version(proxy: Proxy, venv: Path) -> str | None:
    """The version installed in ``venv``, or None when it is not installed."""
    if proxy.installer == "npm":
        manifest = venv / "node_modules" / proxy.distribution / "package.json"
        try:
            return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])
        except (OSError, ValueError, KeyError):
            return None
    python = venv / "bin" / "python"
    if not python.exists():
        return None
    probe = f"import importlib.metadata as m; print(m.version({proxy.distribution!r}))"
    done = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=False)
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def isolation_available() -> bool:
    """Whether this machine can give the run a network namespace of its own."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    done = subprocess.run([*ISOLATE, "true"], capture_output=True, check=False)
    return done.returncode == 0


# --- running ---------------------------------------------------------------------------


class ProxyRunner(Runner):
    """Installs and runs the proxies; the comparison page is ``Runner``'s."""

    def __init__(
        self, reports: Path, timeout: float, install: bool, logs: Path, isolate: bool
    ) -> None:
        super().__init__(reports, timeout, install, logs)
        self.isolate = isolate

    def prepare(self, proxy: Proxy) -> str | None:
        """The installed version of ``proxy``, installing it first if needed."""
        venv = VENVS / proxy.install_name
        stamp = venv / ".toolwire-installed"
        if proxy.installer == "npm" and shutil.which("node") is None:
            self.problems.update(
                {run.report: "node (Node.js) is not installed" for run in proxy.runs}
            )
            return None
        if self.install and (
            installed_version(proxy, venv) is None or read_text_or_empty(stamp) != proxy.package
        ):
            self.say(f"installing {proxy.package} into {venv.relative_to(ROOT)}")
            venv.mkdir(parents=True, exist_ok=True)
            for step in install_steps(proxy, venv):
                if self._call(step, f"install-{proxy.name}") != 0:
                    return None
            write_atomic(stamp, proxy.package)
        return installed_version(proxy, venv)

    def run_proxy(self, proxy: Proxy, run: Run, version: str) -> None:
        folder = self.reports / run.report
        folder.mkdir(parents=True, exist_ok=True)
        results = folder / "results.json"
        results.unlink(missing_ok=True)  # a stale file must not pass for this run's
        with tempfile.TemporaryDirectory(prefix=f"toolwire-{proxy.name}-") as scratch:
            work = Path(scratch)
            config = write_config(proxy, work)
            command = proxy_command(proxy, VENVS / proxy.install_name, work)
            check_loopback(proxy, command, config)
            spec = adapter_spec(proxy, run, version)
            toolwire = [
                sys.executable,
                "-m",
                "toolwire.harness",
                "run",
                "--adapter",
                spec,
                "--proxy-cmd",
                command,
                "--report-dir",
                str(folder),
                "--format",
                "json",
                "--timeout",
                f"{self.timeout:g}",
            ]
            self.say(f"running {run.report} ({proxy.name} {version}, {run.front} -> {run.back})")
            keep = {KEEP_LOG_VARIABLE: str(self.logs / f"{run.report}-proxy.log")}
            code = self._call_in(
                [*ISOLATE, *toolwire] if self.isolate else toolwire, run.report, keep
            )
            shown = command.replace(str(work), "$WORK").replace(str(ROOT) + "/", "")
        problem = _problem(code, results)
        if problem:
            self.problems[run.report] = problem
            self.say(f"  {run.report}: {problem}")
            return
        record = {
            "proxy": proxy.name,
            "package": proxy.package,
            "version": version,
            "front": run.front,
            "back": run.back,
            "adapter": spec,
            "proxy_cmd": shown,
            "network_isolated": self.isolate,
            "exit_code": code,
        }
        write_atomic(folder / "proxy.json", json.dumps(record, indent=2) + "\n")
        for format_name, file_name in (
            ("html", "report.html"),
            ("badge", "badge.json"),
            ("md", "summary.md"),
        ):
            render = [
                sys.executable,
                "-m",
                "toolwire.harness",
                "report",
                str(results),
                "--format",
                format_name,
                "-o",
                str(folder / file_name),
            ]
            if self._call(render, f"{run.report}-{format_name}"):
                self.problems[run.report] = f"toolwire report --format {format_name} failed"

    def rows(self) -> list[AdapterRow]:
        """``Runner``'s rows, with a proxy that produced no results still marked a proxy."""
        reports = {run.report for proxy in PROXIES for run in proxy.runs}
        return [
            replace(row, proxy=True) if row.folder in reports else row for row in super().rows()
        ]

    def _call_in(self, command: Sequence[str], log_name: str, env: Mapping[str, str]) -> int:
        """Runs ``command`` with ``env`` added, its standard error in the log."""
        self.logs.mkdir(parents=True, exist_ok=True)
        with (self.logs / f"{log_name}.log").open("w", encoding="utf-8") as log:
            done = subprocess.run(
                list(command),
                cwd=ROOT,
                env={**os.environ, **env},
                stdout=subprocess.DEVNULL,
                stderr=log,
                check=False,
            )
        return done.returncode


def _problem(code: int, results: Path) -> str:
    """Why a run gave no usable results, or "" when it did (3 = some cases errored)."""
    if code in (0, 1, 3) and results.exists():
        broken = json.loads(results.read_text(encoding="utf-8")).get("broken")
        return f"proxy broken: {broken}" if broken else ""
    if code == 2:
        return "usage error (exit 2): see reports/_local/logs/ for the log"
    return f"exit {code} without results (did the proxy start?): see reports/_local/logs/"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m toolwire.harness.reports.proxies",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this proxy (repeatable)",
    )
    parser.add_argument(
        "--no-install", action="store_true", help="use the installations as they are"
    )
    parser.add_argument(
        "--isolation",
        choices=("auto", "on", "off"),
        default="auto",
        help="run in a network namespace with loopback only (auto: when unshare allows it)",
    )
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    options = parser.parse_args(argv)
    unknown = set(options.only) - {proxy.name for proxy in PROXIES}
    if unknown:
        print(f"error: unknown proxy {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    isolate = options.isolation == "on" or (options.isolation == "auto" and isolation_available())
    if options.isolation == "on" and not isolation_available():
        print("error: --isolation on, but `unshare --net` is not allowed here", file=sys.stderr)
        return 2
    reports = ROOT / "reports"
    runner = ProxyRunner(
        reports, options.timeout, not options.no_install, reports / "_local" / "logs", isolate
    )
    runner.say(f"network: {'own namespace, loopback only' if isolate else 'not isolated'}")
    for proxy in PROXIES:
        if options.only and proxy.name not in options.only:
            continue
        version = runner.prepare(proxy)
        if version is None:
            for run in proxy.runs:
                runner.problems.setdefault(run.report, f"{proxy.package} could not be installed")
            continue
        for run in proxy.runs:
            try:
                runner.run_proxy(proxy, run, version)
            except IntegrationError as error:
                runner.problems[run.report] = str(error)
    runner.write_index()
    for name, problem in sorted(runner.problems.items()):
        print(f"problem: {name}: {problem}", file=sys.stderr)
    return 1 if runner.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
