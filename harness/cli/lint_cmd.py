"""`toolwire lint`: protocol checks on payloads and cassettes, with no adapter."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolwire.harness.cli.options import text_or_json_option

if TYPE_CHECKING:
    from toolwire.harness.lint.dialect_choice import DialectChoice


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--dialect", help="The payloads' dialect (default: detected).")
@click.option("--profile", help="The profile to judge under (default: the dialect's own).")
@click.option(
    "--parser-output",
    is_flag=True,
    help="qwen-xml answers are a tool parser's output (vLLM or sglang with "
    "--tool-call-parser qwen3_coder) even with no tool_calls: markup left in "
    "content is a call the parser missed.",
)
@text_or_json_option("A report to read, or JSON for scripts.")
def lint(
    files: tuple[Path, ...],
    dialect: str | None,
    profile: str | None,
    parser_output: bool,
    output_format: str,
) -> None:
    """Check requests, responses, streams or cassettes against the protocol rules.

    Exit 0 when no MUST rule is violated, 1 when one is.
    """
    from toolwire.harness.lint.check import ACCEPTED_FORMATS, LintInputError, lint_report

    violations = []
    read_as: list[tuple[str, str, str]] = []  # (source, dialect, why)
    notes: list[str] = []  # what was read and not judged, and why
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise LintInputError(
                f"cannot read {path}: it is not UTF-8 text", hint=ACCEPTED_FORMATS
            ) from None
        except OSError as error:
            raise LintInputError(f"cannot read {path}: {error.strerror or error}") from None
        report = lint_report(text, str(path), dialect, profile, parser_output)
        violations.extend(report.violations)
        read_as.extend(_read_as(str(path), report.dialects))
        notes.extend(report.notes)
    failing = [v for v in violations if v.level == "MUST"]
    if output_format == "json":
        dialects = [{"source": s, "dialect": d, "reason": why} for s, d, why in read_as]
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
            json.dumps(
                {
                    "violations": records,
                    "files": len(files),
                    "dialects": dialects,
                    "notes": notes,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        for source, read_dialect, why in read_as:
            click.echo(f"{source}: read as {read_dialect} ({why})")
        for note in notes:
            click.echo(note)
        for violation in violations:
            click.echo(violation.line())
        click.echo(
            f"{len(files)} file(s): {len(failing)} MUST violation(s), "
            f"{len(violations) - len(failing)} SHOULD"
        )
    raise SystemExit(1 if failing else 0)


def _read_as(path: str, choices: Sequence[tuple[str, DialectChoice]]) -> list[tuple[str, str, str]]:
    """One line per file when every part was read alike, else one per part."""
    distinct = {(choice.dialect, choice.reason) for _, choice in choices}
    if len(distinct) == 1:
        only = choices[0][1]
        return [(path, only.dialect, only.reason)]
    return [(source, choice.dialect, choice.reason) for source, choice in choices]
