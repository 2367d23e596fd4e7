"""`toolwire adapter-protocol`: the cmd: adapter protocol, published and checked."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolwire.harness.cli.options import corpus_option, timeout_option
from toolwire.harness.errors import ToolwireError

if TYPE_CHECKING:
    from toolwire.harness.corpus.loader import Corpus

EXIT_INVALID = 1


class ProtocolUsageError(ToolwireError):
    exit_code = 2


@click.command("adapter-protocol")
@click.option(
    "--schema", "print_schema", is_flag=True, help="Print the protocol's JSON Schema and exit."
)
@click.option(
    "--check",
    "command",
    metavar="COMMAND",
    help="Start COMMAND as a cmd: adapter and check every message it exchanges.",
)
@click.option(
    "--validate",
    "transcript",
    type=click.Path(path_type=Path, allow_dash=True),
    help="Check a file of recorded messages, one JSON object per line ('-' for stdin).",
)
@corpus_option("Where --check finds payloads to convert (default: the bundled corpus).")
@timeout_option("Seconds --check waits for each answer.")
def adapter_protocol(
    print_schema: bool,
    command: str | None,
    transcript: Path | None,
    corpus_path: Path | None,
    timeout: float,
) -> None:
    """The protocol of cmd: adapters (converters in any language).

    --schema prints its JSON Schema (draft 2020-12). --check COMMAND runs the
    adapter on one corpus payload per direction it declares, validating every
    message both ways, and stops at the first invalid one with its JSON path.
    Exit 0 when every message is valid, 1 at the first invalid one, 2 on a
    usage error. During a run, TOOLWIRE_CMD_VALIDATE=1 validates the same way.
    """
    chosen = [
        name
        for name, value in (
            ("--schema", print_schema),
            ("--check", command),
            ("--validate", transcript),
        )
        if value
    ]
    if len(chosen) != 1:
        raise ProtocolUsageError(
            "give exactly one of --schema, --check COMMAND, --validate FILE"
            + (f" (got {', '.join(chosen)})" if chosen else "")
        )
    from toolwire.harness.adapters.cmd.check import check_command, check_transcript
    from toolwire.harness.adapters.cmd.protocol import schema_text

    if print_schema:
        click.echo(schema_text(), nl=False)
        return
    if command is not None:
        report = check_command(command, _corpus(corpus_path), timeout)
    else:
        assert transcript is not None
        report = check_transcript(_lines(transcript))
    for line in report.lines:
        click.echo(line)
    if report.problem is not None:
        click.echo(f"INVALID: {report.problem}")
        raise SystemExit(EXIT_INVALID)
    click.echo("protocol OK")


def _corpus(path: Path | None) -> Corpus:
    from toolwire.harness.corpus.loader import (
        bundled_corpus_root,
        corpus_folder_problem,
        load_corpus,
    )

    root = path or bundled_corpus_root()
    problem = corpus_folder_problem(root)
    if problem is not None:
        raise ProtocolUsageError(f"--corpus {root}: {problem[0]}", hint=problem[1])
    return load_corpus(root)


def _lines(path: Path) -> list[str]:
    if str(path) == "-":
        return sys.stdin.read().splitlines()
    if not path.is_file():
        raise ProtocolUsageError(f"{path}: no such file")
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise ProtocolUsageError(
            f"{path}: is not UTF-8 text", hint="a transcript is JSON lines"
        ) from None
    except OSError as error:
        raise ProtocolUsageError(f"{path}: cannot be read: {error.strerror}") from None
