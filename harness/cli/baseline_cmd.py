"""`toolwire baseline`: a baseline file written from a results file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click


@click.command("baseline")
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the baseline to this file (default: print it).",
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
def baseline(results: Path, output: Path | None, force: bool) -> None:
    """Write a baseline from RESULTS: one line per failure, its reason to fill in.

    Use it with `toolwire run --baseline FILE` to adopt toolwire on a converter
    that does not pass yet; a listed failure that starts passing fails the run,
    so the list only shrinks.
    """
    from toolwire.harness.baseline.write import baseline_lines
    from toolwire.harness.reports.load import read_results

    text = "\n".join(baseline_lines(read_results(results))) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    if output.exists() and not force:
        raise click.UsageError(f"{output} exists; pass --force to replace it")
    _write_atomically(output, text)
    entries = sum(1 for line in text.splitlines() if line and not line.startswith("#"))
    click.echo(f"wrote {entries} baseline entr{'y' if entries == 1 else 'ies'} to {output}")


def _write_atomically(path: Path, text: str) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise click.ClickException(f"cannot write {path}: {error.strerror or error}") from None
