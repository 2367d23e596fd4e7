"""`toolwire lint`: protocol checks on payloads and cassettes, with no adapter."""

from __future__ import annotations

import json
from pathlib import Path

import click

from harness.cli.options import text_or_json_option


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--dialect", help="The payloads' dialect (default: detected).")
@click.option("--profile", help="The profile to judge under (default: the dialect's own).")
@text_or_json_option("A report to read, or JSON for scripts.")
def lint(
    files: tuple[Path, ...], dialect: str | None, profile: str | None, output_format: str
) -> None:
    """Check requests, responses, streams or cassettes against the protocol rules.

    Exit 0 when no MUST rule is violated, 1 when one is.
    """
    from harness.engine.lint import LintInputError, lint_text

    violations = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise LintInputError(f"cannot read {path}: {error}") from error
        violations.extend(lint_text(text, str(path), dialect, profile))
    failing = [v for v in violations if v.level == "MUST"]
    if output_format == "json":
        records = [
            {
                "source": v.source,
                "code": v.code,
                "level": v.level,
                "path": v.path,
                "message": v.message,
            }
            for v in violations
        ]
        click.echo(
            json.dumps({"violations": records, "files": len(files)}, indent=2, ensure_ascii=False)
        )
    else:
        for violation in violations:
            click.echo(violation.line())
        click.echo(
            f"{len(files)} file(s): {len(failing)} MUST violation(s), "
            f"{len(violations) - len(failing)} SHOULD"
        )
    raise SystemExit(1 if failing else 0)
