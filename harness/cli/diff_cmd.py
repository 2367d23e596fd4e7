"""`toolwire diff`: what newly fails, newly passes and changed between two results files."""

from __future__ import annotations

import json
from pathlib import Path

import click

from toolwire.harness.cli.options import text_or_json_option


@click.command("diff")
@click.argument("old", type=click.Path(path_type=Path))
@click.argument("new", type=click.Path(path_type=Path))
@text_or_json_option("A summary to read, or JSON for scripts.")
def diff(old: Path, new: Path, output_format: str) -> None:
    """Compare two results files: OLD (the baseline run) and NEW.

    Exit 1 when a verdict newly fails (a regression), 0 otherwise, 2 when a
    file is missing or not a results document.
    """
    from toolwire.harness.reports.diff import diff_results, render_diff_text
    from toolwire.harness.reports.load import read_results

    result = diff_results(read_results(old), read_results(new))
    if output_format == "json":
        click.echo(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(render_diff_text(result, str(old), str(new)), nl=False)
    raise SystemExit(result.exit_code)
