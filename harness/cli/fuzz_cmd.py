"""`toolwire fuzz`: generated conversations through an adapter, failures shrunk.

Needs the ``fuzz`` extra (Hypothesis); the command says so when it is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from toolwire.harness.atomic_write import FileWriteError, ensure_writable_folder
from toolwire.harness.cli.options import (
    adapter_option,
    parse_profiles,
    profiles_option,
    text_or_json_option,
    timeout_option,
)
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import DIALECTS


class FuzzUsageError(ToolwireError):
    exit_code = 2


class FuzzDependencyError(FuzzUsageError):
    """Hypothesis is not installed."""


@click.command("fuzz")
@adapter_option("reference, an installed adapter name, or package.module:attribute.")
@click.option(
    "--examples",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="Generated exchanges in total, shared among the source dialects.",
)
@click.option("--seed", type=int, help="Seed for a reproducible run (default: a random one).")
@click.option(
    "--dialect",
    "dialects",
    multiple=True,
    type=click.Choice(DIALECTS),
    help="Generate only in this source dialect (repeatable; default: every one the adapter "
    "converts from).",
)
@click.option(
    "--save-failure",
    "save_folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each minimal failing exchange here as a cassette for `toolwire corpus add`.",
)
@timeout_option("Seconds an adapter may take per exchange.")
@profiles_option("Judge output in DIALECT under PROFILE (repeatable), as `toolwire run --profile`.")
@click.option(
    "--strict", is_flag=True, help="Count SHOULD warnings as failures too (and shrink them)."
)
@text_or_json_option("A readable report, or JSON.")
def fuzz(
    adapter_spec: str,
    examples: int,
    seed: int | None,
    dialects: tuple[str, ...],
    save_folder: Path | None,
    timeout: float,
    profiles: tuple[str, ...],
    strict: bool,
    output_format: str,
) -> None:
    """Check an adapter on generated conversations and shrink each failure.

    Every generated exchange is valid in its dialect; it goes through every
    direction the adapter declares from that dialect, with the same payload,
    conversion and round-trip checks as `toolwire run`. Each failing rule is
    shrunk to a minimal exchange and printed with the command that reproduces it.

    Exit 0 when nothing failed, 1 when a MUST rule failed (or, with --strict, a
    SHOULD rule warned), 2 on a usage error, 3 when the adapter raised (or the
    generator broke).
    """
    try:
        from toolwire.harness.fuzz.engine import FuzzOptions, run_fuzz
        from toolwire.harness.fuzz.report import report_json, report_lines, save_failures
    except ImportError as error:
        raise FuzzDependencyError(
            f"toolwire fuzz needs Hypothesis ({error})",
            hint="install the fuzz extra: pip install 'toolwire[fuzz]'",
        ) from None
    from toolwire.harness.adapters.lifecycle import adapter_session
    from toolwire.harness.adapters.loader import load_adapter

    if save_folder is not None:
        ensure_writable_folder(save_folder)  # before the run, not after it
    adapter = load_adapter(adapter_spec)
    options = FuzzOptions(
        examples=examples,
        seed=seed,
        dialects=dialects,
        timeout=timeout,
        profiles=parse_profiles(profiles),
        strict=strict,
    )
    text = output_format == "text"

    def announce(dialect: str, count: int) -> None:
        if text:
            click.echo(f"fuzzing {count} {dialect} exchanges ...", err=True)

    with adapter_session(adapter):
        report = run_fuzz(adapter, options, on_dialect=announce)
    refused: list[str] = []
    saved: list[Path] = []
    if save_folder is not None:
        try:
            saved = save_failures(report, save_folder, refused)
        except FileWriteError as error:  # the report still prints; then one error line
            refused.append(str(error))
    if not text:
        document = report_json(report)
        document["saved"] = [str(path) for path in saved]
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for line in report_lines(report, examples):
            click.echo(line)
        for path in saved:
            click.echo(f"Saved {path}: keep it with `toolwire corpus add {path}`")
    for message in refused:
        click.echo(f"toolwire: error: {message}", err=True)
    raise SystemExit(FileWriteError.exit_code if refused else report.exit_code)
