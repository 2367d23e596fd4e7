"""`toolwire run`: the conformance run of an adapter over a corpus."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from toolwire.conformance.profiles import PROFILES
from toolwire.harness.atomic_write import ensure_writable_folder, write_atomic
from toolwire.harness.cli.config import ConfiguredCommand, config_hint, env_name
from toolwire.harness.cli.options import (
    corpus_option,
    parse_profiles,
    profiles_option,
    schema_option,
    text_or_json_option,
    timeout_option,
)
from toolwire.harness.cli.output import print_run_summary
from toolwire.harness.errors import CorpusError, ToolwireError
from toolwire.harness.gate import DEFAULT_FAIL_ON, FAIL_ON, gated_exit_code

EXIT_USAGE = 2


class RunUsageError(ToolwireError):
    exit_code = EXIT_USAGE


def _parse_jobs(_ctx: click.Context, _param: click.Parameter, value: str) -> int:
    """``--jobs``: a count of worker processes, or ``auto`` for one per CPU."""
    if value.strip().lower() == "auto":
        return os.cpu_count() or 1
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise click.BadParameter(f"{value!r} is not a number of processes: use 1, 2, ... or auto")
    return jobs


@click.command("run", cls=ConfiguredCommand)
@click.option(
    "--adapter",
    "adapter_spec",
    envvar=env_name("adapter"),
    show_envvar=True,
    metavar="SPEC",
    help="The adapter to judge (required, unless the environment or [tool.toolwire] of "
    "pyproject.toml names one): reference, an installed adapter name, "
    "package.module:attribute, http://127.0.0.1:PORT?front=...&back=... or cmd:COMMAND.",
)
@corpus_option(envvar=env_name("corpus"))
@click.option(
    "--select",
    "select",
    metavar="EXPR",
    envvar=env_name("select"),
    help="Comma-separated: feature:NAME, dialect:NAME, rule:GLOB or a glob on case ids.",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(path_type=Path),
    envvar=env_name("baseline"),
    help="Known failures, one 'case-id::rule-code  # reason' per line.",
)
@click.option(
    "--report-dir",
    type=click.Path(path_type=Path),
    envvar=env_name("report-dir"),
    help="Write results.json into this folder.",
)
@text_or_json_option("What to print: a summary, or the results JSON.")
@timeout_option("Seconds an adapter may take per case.", envvar=env_name("timeout"))
@click.option(
    "--jobs",
    default="1",
    show_default=True,
    metavar="N|auto",
    callback=_parse_jobs,
    envvar=env_name("jobs"),
    help="Run cases in N worker processes (auto: one per CPU); same verdicts, same order. "
    "An http:// adapter always runs serially.",
)
@profiles_option(
    "Judge output in DIALECT under PROFILE (repeatable; profiles: "
    + ", ".join(f"{name} ({p.dialect})" for name, p in PROFILES.items())
    + ").",
    envvar=env_name("profiles"),
)
@click.option(
    "--fail-on",
    "fail_on",
    type=click.Choice(FAIL_ON),
    default=DEFAULT_FAIL_ON,
    show_default=True,
    envvar=env_name("fail-on"),
    help="What fails the run: MUST failures, adapter errors and stale baseline entries "
    "(must), or SHOULD verdicts too (warn).",
)
@click.option("--strict", is_flag=True, help="The same as --fail-on warn.")
@click.option(
    "--proxy-cmd",
    "proxy_command",
    metavar="COMMAND",
    envvar=env_name("proxy-cmd"),
    help="Start the proxy of an http:// adapter for the run: {upstream_url} and {port} are "
    "replaced (docs/proxies.md).",
)
@click.option(
    "--progress",
    "progress_setting",
    type=click.Choice(["auto", "bar", "plain", "off"]),
    default="auto",
    show_default=True,
    envvar=env_name("progress"),
    help="Progress on stderr: a bar with counts and the current case on a terminal, "
    "a plain line every 30 s in CI or a pipe (auto), or none.",
)
@click.option("-v", "--verbose", is_flag=True, help="Explain every failure, not just the first 20.")
@schema_option(
    "Print the JSON Schema of the results JSON (draft 2020-12) and exit.",
    "toolwire.harness.reports.load",
)
def run(
    adapter_spec: str | None,
    corpus_path: Path | None,
    select: str | None,
    baseline_path: Path | None,
    report_dir: Path | None,
    output_format: str,
    timeout: float,
    jobs: int,
    profiles: tuple[str, ...],
    fail_on: str,
    strict: bool,
    proxy_command: str | None,
    progress_setting: str,
    verbose: bool,
) -> None:
    """Run the conformance checks of an adapter over a corpus.

    Exit 0 when every MUST check passes or is baselined, 1 when one fails or a
    baseline entry is stale (or, with --fail-on warn, a SHOULD verdict is
    there), 2 on a usage error, 3 when the adapter broke.

    Every option may also come from a TOOLWIRE_* environment variable
    (TOOLWIRE_ADAPTER, TOOLWIRE_FAIL_ON, TOOLWIRE_PROFILES separated by spaces,
    ...) or from [tool.toolwire] in pyproject.toml (adapter, corpus, select,
    baseline, report-dir, timeout, jobs, profiles, fail-on, ...); the command
    line wins over the environment, the environment over pyproject.toml.
    """
    from toolwire.harness.adapters.lifecycle import adapter_session
    from toolwire.harness.adapters.loader import load_adapter
    from toolwire.harness.baseline.entries import load_baseline
    from toolwire.harness.cli.progress import RunProgress, resolve_mode
    from toolwire.harness.corpus.loader import (
        bundled_corpus_root,
        corpus_folder_problem,
        load_corpus,
    )
    from toolwire.harness.engine.adapter_output import stdout_to_stderr
    from toolwire.harness.engine.lingering import exit_if_threads_linger, running_threads
    from toolwire.harness.engine.options import RunOptions
    from toolwire.harness.engine.session import Selection, run_corpus
    from toolwire.harness.results.document import results_document

    if adapter_spec is None or not adapter_spec.strip():
        raise _no_adapter()
    if strict:
        fail_on = "warn"
    if report_dir is not None:
        ensure_writable_folder(report_dir)  # refused now, not after the whole run
    root = corpus_path or bundled_corpus_root()
    problem = corpus_folder_problem(root)
    if problem is not None:
        raise RunUsageError(f"--corpus {root}: {problem[0]}", hint=problem[1])
    try:
        corpus = load_corpus(root)
    except CorpusError as error:
        raise RunUsageError(
            str(error), hint="run `toolwire corpus validate --corpus PATH`"
        ) from error
    threads_before = running_threads()
    with stdout_to_stderr():  # what an adapter prints must not mix with the results JSON
        adapter = load_adapter(adapter_spec)
    baseline = load_baseline(baseline_path, corpus.ids) if baseline_path else []
    options = RunOptions(timeout=timeout, profiles=parse_profiles(profiles), corpus=corpus)
    selection = Selection.parse(select)
    stderr = sys.stderr
    progress = RunProgress(
        resolve_mode(progress_setting, stderr),
        sum(1 for case in corpus if selection.selects_case(case)),
        stderr,
    )
    with stdout_to_stderr(), adapter_session(adapter, proxy_command), progress:
        result = run_corpus(
            corpus,
            adapter,
            options,
            selection,
            baseline,
            on_case=progress.case_finished,
            jobs=jobs,
            on_case_start=progress.case_started,
        )
    exit_code = gated_exit_code(result.exit_code, (v.outcome for v in result.verdicts), fail_on)
    document = results_document(result)
    document["exit_code"] = exit_code
    if report_dir is not None:
        write_atomic(
            report_dir / "results.json", json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        )
    if output_format == "json":
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        print_run_summary(
            result, verbose=verbose, report_dir=report_dir, fail_on=fail_on, exit_code=exit_code
        )
    exit_if_threads_linger(threads_before, exit_code, lambda line: click.echo(line, err=True))
    raise SystemExit(exit_code)


def _no_adapter() -> RunUsageError:
    """No adapter on the command line, in the environment or in pyproject.toml:
    a run never judges one nobody named."""
    from toolwire.harness.adapters.loader import available_adapter_names

    return RunUsageError(
        "no adapter to judge: name one with " + config_hint(),
        hint="installed adapters: "
        + ", ".join(available_adapter_names())
        + "; or package.module:attribute, http://HOST:PORT or cmd:COMMAND (docs/adapters.md)",
    )
