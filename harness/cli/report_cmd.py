"""`toolwire report`: render a results file as JUnit XML, Markdown, HTML or a badge."""

from __future__ import annotations

from pathlib import Path

import click

from toolwire.harness.atomic_write import write_atomic

FORMATS = ("junit", "md", "html", "badge")


@click.command("report")
@click.argument("results", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "format_name",
    type=click.Choice(FORMATS),
    required=True,
    help="junit (CI test reports), md (job summary), html (one self-contained page), "
    "badge (shields.io endpoint JSON).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write here instead of standard output.",
)
def report(results: Path, format_name: str, output: Path | None) -> None:
    """Render RESULTS (a results.json from `toolwire run`) in another format.

    Exit 0 when written, 2 when RESULTS is missing or not a results document.
    """
    from toolwire.harness.reports.load import read_results
    from toolwire.harness.reports.render import render

    text = render(read_results(results), format_name)
    if output is None:
        click.echo(text, nl=False)
        return
    write_atomic(output, text)
