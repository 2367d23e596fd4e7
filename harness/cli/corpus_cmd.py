"""`toolwire corpus`: list, show, validate and add corpus cases.

A thin layer over ``toolwire.harness.corpus``: user errors are ``ToolwireError`` s,
which ``toolwire.harness.cli.main`` prints on one line.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import yaml

from toolwire.harness.cli.exit_codes import EXIT_FINDINGS
from toolwire.harness.cli.options import corpus_option, text_or_json_option
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import (
    Corpus,
    bundled_corpus_root,
    display_path,
    is_checkout_corpus,
    load_corpus,
)
from toolwire.harness.corpus.summary import case_summary
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.corpus.vocabulary import FEATURES, PROFILES
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import DIALECTS

if TYPE_CHECKING:
    from toolwire.harness.corpus.coverage import CoverageReport


def corpus_to_write(corpus_path: Path | None) -> Path:
    """The corpus a new case goes to. Without --corpus that is the bundled one,
    but only in a source checkout: an installed package is replaced by the
    next upgrade, and the case with it."""
    if corpus_path is not None:
        return corpus_path
    root = bundled_corpus_root()
    if not is_checkout_corpus(root):
        raise click.UsageError(
            f"without --corpus the case would be written into the installed toolwire package "
            f"({root}), which the next upgrade replaces; pass --corpus FOLDER (your own corpus, "
            "for example --corpus corpus)"
        )
    return root


_CORPUS_OPTION = corpus_option(
    "Corpus folder (default: the corpus bundled with toolwire).", checked=True
)


@click.group()
def corpus() -> None:
    """Work with the corpus of recorded cases."""


@corpus.command("list")
@_CORPUS_OPTION
@text_or_json_option("Table for people, JSON for scripts.")
@click.option(
    "--coverage/--no-coverage",
    default=True,
    show_default=True,
    help="Judge the cases (lint, the reference adapter, a pass-through) for rule coverage.",
)
def list_cases(corpus_path: Path | None, output_format: str, coverage: bool) -> None:
    """List the cases with their dialect, features, payload kinds and provenance,
    then the coverage: counts by direction and provenance, features × dialects,
    and the positive and negative cases of every rule (docs/corpus-format.md)."""
    cases = _load(corpus_path)
    rows = [_row(case) for case in cases]
    counts = {"features": _feature_counts(cases), "dialects": _dialect_counts(cases)}
    report = _coverage(cases) if coverage else None
    if output_format == "json":
        from toolwire.harness.corpus.coverage import direction_counts, provenance_counts

        data: dict[str, Any] = {
            "corpus": display_path(cases.root),
            "total": len(rows),
            "cases": rows,
            **counts,
            "directions": direction_counts(cases),
            "provenance": provenance_counts(cases),
        }
        if report is not None:
            data["coverage"] = report.to_json()
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(_table(rows))
    click.echo("")
    noun = "case" if len(rows) == 1 else "cases"
    click.echo(f"{len(rows)} {noun} in {display_path(cases.root)}")
    click.echo("by feature: " + _counts_line(counts["features"]))
    click.echo("by dialect: " + _counts_line(counts["dialects"]))
    if report is not None:
        from toolwire.harness.corpus.coverage_text import coverage_lines

        click.echo("\n".join(coverage_lines(report)))


@corpus.command("add")
@click.argument("cassette", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@corpus_option(to_write=True)
@click.option("--id", "case_id", help="Case id (default: <main-feature>/<cassette name>).")
@click.option("--dialect", type=click.Choice(DIALECTS), help="The dialect (default: detected).")
@click.option("--profile", type=click.Choice(PROFILES), help="Profile (default: the dialect's).")
@click.option(
    "--feature", "features", multiple=True, type=click.Choice(FEATURES), help="Add a feature."
)
@click.option("--description", help="One line saying what the case shows.")
@click.option("--force", is_flag=True, help="Replace an existing case with the same id.")
@click.option(
    "--negative",
    is_flag=True,
    help="Keep a recording that breaks rules as a negative case expecting exactly them.",
)
def add_case(
    cassette: Path,
    corpus_path: Path | None,
    case_id: str | None,
    dialect: str | None,
    profile: str | None,
    features: tuple[str, ...],
    description: str | None,
    force: bool,
    negative: bool,
) -> None:
    """Import a cassette recorded elsewhere (vcrpy, pytest-recording) as a case.

    The cassette is scrubbed of credentials, its dialect and features are
    detected, and the case is linted, validated and written atomically. A
    recording that breaks a MUST rule is refused with its verdicts (or kept
    as a negative case with --negative). An existing case is never replaced
    unless --force is given; the same recording added twice names its case.
    """
    from toolwire.harness.corpus.importer import AddOptions, import_cassette

    options = AddOptions(
        corpus_root=corpus_to_write(corpus_path),
        case_id=case_id,
        dialect=dialect,
        profile=profile,
        features=features,
        description=description,
        force=force,
        negative=negative,
    )
    result = import_cassette(cassette, options)
    click.echo(f"scrubbed: {result.scrubbed}")
    click.echo(result.summary())


@corpus.command("show")
@click.argument("case_id")
@_CORPUS_OPTION
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["yaml", "json"]),
    default="yaml",
    show_default=True,
    help="Output format.",
)
def show_case(case_id: str, corpus_path: Path | None, output_format: str) -> None:
    """Show one case: its metadata and a compact view of each interaction."""
    case = _load(corpus_path)[case_id]
    data = case_summary(case)
    data["source"] = display_path(case.source)
    if output_format == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(
            yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1_000_000), nl=False
        )


@corpus.command("validate")
@_CORPUS_OPTION
def validate(corpus_path: Path | None) -> None:
    """Check every case and the corpus as a whole; list every problem.

    Exit 0 when the corpus is valid, 1 with one problem per line otherwise.
    """
    report = validate_corpus(corpus_path or bundled_corpus_root())
    for problem in report.problems:
        click.echo(str(problem))
    click.echo(report.summary(), err=not report.ok)
    if not report.ok:
        raise click.exceptions.Exit(EXIT_FINDINGS)


def _load(corpus_path: Path | None) -> Corpus:
    return load_corpus(corpus_path or bundled_corpus_root())


def _coverage(cases: Corpus) -> CoverageReport:
    from toolwire.harness.adapters.loader import load_adapter
    from toolwire.harness.corpus.coverage import corpus_coverage

    try:
        reference = load_adapter("reference")
    except ToolwireError as error:  # still report what lint alone can judge
        click.echo(f"toolwire: note: reference adapter unavailable ({error})", err=True)
        return corpus_coverage(cases)
    return corpus_coverage(cases, reference)


def _row(case: Case) -> dict[str, Any]:
    return {
        "id": case.id,
        "dialect": case.dialect,
        "profile": case.profile,
        "features": list(case.features),
        "kinds": list(case.payload_kinds),
        "interactions": len(case.interactions),
        "provenance": case.provenance.kind,
    }


def _feature_counts(cases: Corpus) -> dict[str, int]:
    counter = Counter(feature for case in cases for feature in case.features)
    return {feature: counter[feature] for feature in FEATURES if counter[feature]}


def _dialect_counts(cases: Corpus) -> dict[str, int]:
    counter = Counter(case.dialect for case in cases)
    return {dialect: counter[dialect] for dialect in DIALECTS if counter[dialect]}


def _counts_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "-"


def _table(rows: list[dict[str, Any]]) -> str:
    headers = ("ID", "DIALECT", "FEATURES", "KINDS", "PROVENANCE")
    cells = [
        (
            row["id"],
            row["dialect"],
            ",".join(row["features"]),
            ",".join(row["kinds"]),
            row["provenance"],
        )
        for row in rows
    ]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(headers)]
    lines = [headers, *cells]
    return "\n".join(
        "  ".join(value.ljust(width) for value, width in zip(line, widths, strict=True)).rstrip()
        for line in lines
    )
