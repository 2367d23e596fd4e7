"""The toolwire action's main step: install toolwire, run it, render the reports,
write the job summary and every step output.

It runs under the caller's Python (the one their converter is installed in)
and uses the standard library only: it lives in the action's checkout, not in
the installed toolwire, so it works with whatever toolwire the `toolwire`
input installs. It never fails itself: every outcome, a usage error
included, ends in the outputs (`exit-code`, `error`, the counts), and a later
step of action.yml fails the job.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_USAGE = 2  # toolwire's own code for a usage error (harness/cli/exit_codes.py)
INSTALLED = "installed"  # `toolwire: installed` keeps the toolwire already there
# Characters actions/upload-artifact refuses in a name (actions/toolkit,
# packages/artifact/src/internal/upload/path-and-artifact-name-validation.ts).
ARTIFACT_FORBIDDEN = '":<>|*?\r\n\\/'
NAME_LIMIT = 80  # keeps the artifact list readable; a hash keeps it unique
OUTPUTS = (
    "exit-code",
    "error",
    "passed",
    "failed",
    "warned",
    "results",
    "report",
    "artifact-name",
)
REPORTS = (("md", "summary.md"), ("html", "report.html"), ("junit", "junit.xml"))
REPORTS_OPTIONAL = (("badge", "badge.json"),)


class UsageError(Exception):
    """A one-line message saying what was wrong with the inputs and how to fix it."""


@dataclass(frozen=True)
class Inputs:
    adapter: str  # empty: the one [tool.toolwire] or TOOLWIRE_ADAPTER names, else exit 2
    corpus: str
    select: str
    baseline: str
    report_dir: str
    artifact_name: str
    toolwire: str
    python: str
    python_version: str
    fail_on: str = ""
    profiles: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Inputs:
        def get(name: str, default: str = "") -> str:
            return env.get(f"INPUT_{name}", "").strip() or default

        return cls(
            adapter=get("ADAPTER"),
            corpus=get("CORPUS"),
            select=get("SELECT"),
            baseline=get("BASELINE"),
            report_dir=get("REPORT_DIR", "toolwire-reports"),
            artifact_name=get("ARTIFACT_NAME"),
            toolwire=get("TOOLWIRE"),
            python=get("PYTHON"),
            python_version=get("PYTHON_VERSION"),
            fail_on=get("FAIL_ON"),
            # one DIALECT=PROFILE per line, or separated by spaces or commas
            profiles=tuple(re.split(r"[\s,]+", get("PROFILE"))) if get("PROFILE") else (),
        )


# --- the artifact name -------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_.-") or "_"


def _matrix_values(matrix_json: str) -> list[str] | None:
    """The values of the job's matrix (``toJSON(matrix)``), or None without one."""
    try:
        matrix = json.loads(matrix_json) if matrix_json.strip() else None
    except json.JSONDecodeError:
        return [matrix_json]
    if not isinstance(matrix, dict) or not matrix:
        return None
    return [
        value if isinstance(value, str) else json.dumps(value, sort_keys=True)
        for value in matrix.values()
    ]


def default_artifact_name(inputs: Inputs, env: Mapping[str, str]) -> str:
    """``toolwire-JOB[-MATRIX VALUES]-ADAPTER``: distinct for every job of a
    matrix. Characters upload-artifact refuses become ``_``; then, or when the
    name is cut at NAME_LIMIT, a hash of the exact values keeps it unique. A
    re-run attempt gets its own name (upload-artifact@v6 refuses to overwrite
    a name that an earlier attempt of the run uploaded)."""
    parts = [env.get("GITHUB_JOB", "") or "job"]
    matrix = _matrix_values(env.get("TOOLWIRE_MATRIX", ""))
    if matrix is not None:
        parts += matrix
    elif env.get("TOOLWIRE_JOB_TOTAL", "1") not in ("", "0", "1"):  # a matrix, values unknown
        parts.append(env.get("TOOLWIRE_JOB_INDEX", "") or "0")
    parts.append(inputs.adapter or "configured")  # else from the project's settings
    name = "-".join(["toolwire", *(_slug(part) for part in parts)])
    if len(name) > NAME_LIMIT or any(_slug(part) != part for part in parts):
        digest = hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:8]
        name = f"{name[: NAME_LIMIT - 9].rstrip('_.-')}-{digest}"
    attempt = env.get("GITHUB_RUN_ATTEMPT", "") or "1"
    return name if attempt == "1" else f"{name}-attempt-{_slug(attempt)}"


def artifact_name(inputs: Inputs, env: Mapping[str, str]) -> str:
    if not inputs.artifact_name:
        return default_artifact_name(inputs, env)
    bad = sorted({repr(c) for c in inputs.artifact_name if c in ARTIFACT_FORBIDDEN})
    if bad:
        raise UsageError(
            f"artifact-name {inputs.artifact_name!r} holds {', '.join(bad)}, which "
            "upload-artifact refuses: use letters, digits, '.', '-' and '_'"
        )
    return inputs.artifact_name


# --- installing toolwire -----------------------------------------------------


def install_target(inputs: Inputs, env: Mapping[str, str]) -> str | None:
    """What `pip install` gets: the `toolwire` requirement, else the action's
    own checkout; None for `toolwire: installed` (keep what is there)."""
    if inputs.toolwire == INSTALLED:
        return None
    if inputs.toolwire:
        return inputs.toolwire
    action_path = env.get("GITHUB_ACTION_PATH", "")
    if not action_path or not (Path(action_path) / "pyproject.toml").is_file():
        raise UsageError(
            f"GITHUB_ACTION_PATH {action_path!r} is not a toolwire checkout: run this step "
            "from the action, or set the toolwire input to a pip requirement"
        )
    return action_path


def install_command(target: str) -> list[str]:
    # pip installs a local folder again even when the same version is there,
    # so the action's checkout replaces any toolwire the caller installed.
    return [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", target]


def find_toolwire() -> str | None:
    """The `toolwire` command of this Python's environment (where pip just
    installed it, and where the converter is), or of its user site. Not any
    `toolwire` on PATH: one of another environment could not import the
    converter."""
    for scheme in (sysconfig.get_default_scheme(), sysconfig.get_preferred_scheme("user")):
        found = shutil.which("toolwire", path=sysconfig.get_path("scripts", scheme))
        if found:
            return found
    return None


PEP_668_FIX = (
    "this Python belongs to the system: set up your own with actions/setup-python "
    "and install your converter in it before this action"
)


def _pip_error(stderr: str) -> str:
    """pip's last ``ERROR:`` line (its reason; the lines after it are notes and
    hints), else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.lower().startswith("error:")]
    if errors:
        return errors[-1].split(":", 1)[1].strip()
    return lines[-1] if lines else "no output"


def install(inputs: Inputs, env: Mapping[str, str]) -> str:
    target = install_target(inputs, env)
    if target is not None:
        print(f"::group::Install toolwire ({target})", flush=True)
        done = subprocess.run(install_command(target), capture_output=True, text=True)
        print(done.stdout + done.stderr, end="")
        print("::endgroup::", flush=True)
        if done.returncode != 0:
            raise UsageError(
                f"pip could not install toolwire from {target}: {_pip_error(done.stderr)}"
                + (f" ({PEP_668_FIX})" if "externally-managed" in done.stderr else "")
            )
    toolwire = find_toolwire()
    if toolwire is None:
        raise UsageError(
            f"the toolwire command is not installed for {sys.executable}: install toolwire "
            "in an earlier step, or leave the toolwire input empty"
        )
    return toolwire


# --- running it --------------------------------------------------------------


EXIT_BROKEN = 3  # toolwire's code for "the harness or the adapter broke"


@dataclass
class Outcome:
    exit_code: int
    error: str = ""
    totals: dict[str, int] | None = None
    results: Path | None = None
    report: Path | None = None
    summary_md: Path | None = None
    log: Path | None = None


def run_command(toolwire: str, inputs: Inputs) -> list[str]:
    """`toolwire run` with the inputs given. An empty input is left to the
    project's settings ([tool.toolwire] in its pyproject.toml, TOOLWIRE_*
    variables): without an adapter anywhere toolwire exits 2 and lists the
    installed ones."""
    command = [toolwire, "run", "--report-dir", inputs.report_dir]
    for option, value in (
        ("--adapter", inputs.adapter),
        ("--corpus", inputs.corpus),
        ("--select", inputs.select),
        ("--baseline", inputs.baseline),
        ("--fail-on", inputs.fail_on),
    ):
        if value:
            command += [option, value]
    for profile in inputs.profiles:
        command += ["--profile", profile]
    return command


def _error_line(log: str) -> str:
    """toolwire's one-line error (``toolwire: error: ...``), else the last line."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("toolwire: error:")]
    line = errors[-1] if errors else (lines[-1] if lines else "no output")
    return line.removeprefix("toolwire: error:").strip()


def run_toolwire(toolwire: str, inputs: Inputs) -> Outcome:
    """Run `toolwire run`, its output shown live and kept in run.txt."""
    report_dir = Path(inputs.report_dir)
    started = time.time()
    log_lines = []
    with subprocess.Popen(
        run_command(toolwire, inputs),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            log_lines.append(line)
    log = "".join(log_lines)
    (report_dir / "run.txt").write_text(log, encoding="utf-8")
    code = process.returncode
    logged = report_dir / "run.txt"
    results = report_dir / "results.json"
    # A results.json older than this run is an earlier run's: never report it.
    fresh = results.is_file() and results.stat().st_mtime >= started - 1
    if code == EXIT_USAGE or not fresh:
        reason = _error_line(log)
        if code != EXIT_USAGE:
            reason = f"toolwire run exited {code} without writing results: {reason}"
        return Outcome(code, error=reason, log=logged)
    document: dict[str, Any] = json.loads(results.read_text(encoding="utf-8"))
    totals = {key: int(value) for key, value in document["totals"].items()}
    error = str(document.get("broken") or "")
    if not error and totals.get("error"):
        error = f"the adapter broke on {totals['error']} verdicts (outcome error): see the summary"
    if not error and code not in (0, 1):
        error = _error_line(log)
    return Outcome(code, error=error, totals=totals, results=results, log=logged)


def render_reports(toolwire: str, outcome: Outcome, report_dir: Path) -> None:
    """Every report of the results; only a file written now is reported (one
    left by an earlier run in report-dir is not this run's)."""
    assert outcome.results is not None
    started = time.time()
    for required, formats in ((True, REPORTS), (False, REPORTS_OPTIONAL)):
        for fmt, name in formats:
            done = subprocess.run(
                [
                    toolwire,
                    "report",
                    str(outcome.results),
                    "--format",
                    fmt,
                    "-o",
                    str(report_dir / name),
                ],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0 and required:
                print(f"::warning title=toolwire::{_escape(_error_line(done.stderr))}")

    def fresh(name: str) -> Path | None:
        path = report_dir / name
        return path if path.is_file() and path.stat().st_mtime >= started - 1 else None

    outcome.report = fresh("report.html")
    outcome.summary_md = fresh("summary.md")


# --- what GitHub gets --------------------------------------------------------


def _escape(text: str) -> str:
    """A workflow-command value (GitHub's escaping of %, CR and LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def outputs(outcome: Outcome, name: str) -> dict[str, str]:
    totals = outcome.totals
    counts = (
        {
            "passed": str(totals["pass"]),
            "failed": str(totals["fail"] + totals["error"] + totals["stale"]),
            "warned": str(totals["warn"]),
        }
        if totals is not None
        else {"passed": "", "failed": "", "warned": ""}  # nothing was judged: no count
    )
    return {
        "exit-code": str(outcome.exit_code),
        "error": " ".join(outcome.error.split()),
        **counts,
        "results": str(outcome.results or ""),
        "report": str(outcome.report or ""),
        "artifact-name": name,
    }


def summary(outcome: Outcome, name: str) -> str:
    if outcome.totals is None:
        what = (
            "a usage error: fix the input it names"
            if outcome.exit_code == EXIT_USAGE
            else f"exit code {outcome.exit_code}, without results"
        )
        log = f"The log is `run.txt` in the artifact `{name}`.\n" if outcome.log and name else ""
        return (
            f"### toolwire did not run\n\n"
            f"Nothing was judged: {what}.\n\n"
            f"> {' '.join(outcome.error.split())}\n\n{log}"
        )
    text = ""
    if outcome.summary_md is not None:
        text = outcome.summary_md.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    if outcome.error:
        text += f"**toolwire:** {' '.join(outcome.error.split())}\n\n"
    return text + f"Reports: artifact `{name}` (report.html, junit.xml, results.json).\n"


def _append(path: str, text: str) -> None:
    with open(path, "a", encoding="utf-8") as file:
        file.write(text)


def main(env: Mapping[str, str]) -> int:
    inputs = Inputs.from_env(env)
    name = ""
    try:
        name = artifact_name(inputs, env)
        if inputs.python and inputs.python_version:
            raise UsageError(
                "set python (an interpreter with your converter) or python-version "
                "(a new one from actions/setup-python), not both"
            )
        try:
            Path(inputs.report_dir).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"report-dir {inputs.report_dir}: {error.strerror}") from error
        toolwire = install(inputs, env)
        outcome = run_toolwire(toolwire, inputs)
        if outcome.results is not None:
            render_reports(toolwire, outcome, Path(inputs.report_dir))
    except UsageError as error:
        outcome = Outcome(EXIT_USAGE, error=str(error))
    except Exception as error:  # the step itself broke: still every output
        outcome = Outcome(EXIT_BROKEN, error=f"the action's step broke: {error!r}")
    if outcome.error:
        print(f"::error title=toolwire::{_escape(outcome.error)}", flush=True)
    values = outputs(outcome, name)
    lines = "".join(f"{key}={values[key]}\n" for key in OUTPUTS)
    if env.get("GITHUB_OUTPUT"):
        _append(env["GITHUB_OUTPUT"], lines)
    else:
        print(lines, end="")
    if env.get("GITHUB_STEP_SUMMARY"):
        _append(env["GITHUB_STEP_SUMMARY"], summary(outcome, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(os.environ))
