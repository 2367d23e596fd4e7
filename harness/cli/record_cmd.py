"""`toolwire record`: record one live exchange as a new corpus case.

A thin layer over ``toolwire.harness.corpus.record``. The API key is read from an
environment variable only (a command-line value would land in shell
history) and is never printed.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from toolwire.harness import json_text
from toolwire.harness.cli.corpus_cmd import corpus_to_write
from toolwire.harness.cli.options import api_key_from_env, corpus_option, timeout_option
from toolwire.harness.corpus.importer import AddOptions
from toolwire.harness.corpus.record import DEFAULT_TIMEOUT, RecordOptions, record_case
from toolwire.harness.corpus.scrub import is_secret_header
from toolwire.harness.corpus.vocabulary import FEATURES, PROFILES
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import DIALECTS


class RecordUsageError(ToolwireError):
    exit_code = 2


@click.command("record")
@click.option("--base-url", required=True, help="API base URL, e.g. https://api.openai.com/v1.")
@click.option("--dialect", required=True, type=click.Choice(DIALECTS), help="The API's dialect.")
@click.option(
    "--request",
    "request_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help='JSON request body to send (streamed when it says "stream": true).',
)
@click.option(
    "--api-key-env",
    metavar="VAR",
    help="Environment variable holding the API key (default: the provider SDK's, "
    "e.g. OPENAI_API_KEY).",
)
@click.option("--id", "case_id", help="Case id (default: <main-feature>/<model>-<tool>).")
@corpus_option(to_write=True)
@click.option(
    "--feature", "features", multiple=True, type=click.Choice(FEATURES), help="Add a feature."
)
@click.option("--description", help="One line saying what the case shows.")
@click.option("--profile", type=click.Choice(PROFILES), help="Profile (default: the dialect's).")
@click.option(
    "--header",
    "headers",
    multiple=True,
    metavar="'NAME: VALUE'",
    help="Extra request header, e.g. 'anthropic-beta: interleaved-thinking-2025-05-14'.",
)
@timeout_option("Seconds to wait for the answer.", default=DEFAULT_TIMEOUT)
@click.option(
    "--allow-error-status",
    is_flag=True,
    help="Keep a 4xx/5xx answer as the case (it documents what the API refuses).",
)
@click.option("--force", is_flag=True, help="Replace an existing case with the same id.")
def record(
    base_url: str,
    dialect: str,
    request_file: Path,
    api_key_env: str | None,
    case_id: str | None,
    corpus_path: Path | None,
    features: tuple[str, ...],
    description: str | None,
    profile: str | None,
    headers: tuple[str, ...],
    timeout: float,
    allow_error_status: bool,
    force: bool,
) -> None:
    """Record a live exchange through vcrpy and add it to the corpus as a case.

    Credential headers, cookies, organisation ids and key-like strings are
    scrubbed before anything is written; the case is validated, then written
    atomically.
    """
    body = _request_body(request_file)
    options = RecordOptions(
        base_url=base_url,
        dialect=dialect,
        request_body=body,
        api_key=api_key_from_env(
            api_key_env, dialect, RecordUsageError, "sending the request without a key"
        ),
        headers=tuple(_header(item) for item in headers),
        timeout=timeout,
        allow_error_status=allow_error_status,
        add=AddOptions(
            corpus_root=corpus_to_write(corpus_path),
            case_id=case_id,
            profile=profile,
            features=features,
            description=description,
            force=force,
            lint=False,  # a live exchange is kept; `corpus validate` reports its verdicts
        ),
    )
    recorded = record_case(options)
    click.echo(f"recorded POST {recorded.url} -> HTTP {recorded.status}")
    click.echo(f"scrubbed: {recorded.scrubbed}")
    click.echo(recorded.result.summary())


def _request_body(path: Path) -> dict[str, object]:
    try:
        value = json_text.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RecordUsageError(f"cannot read {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise RecordUsageError(
            f"{path}: not valid JSON ({error.msg}, line {error.lineno})",
            hint="--request takes the JSON body to send",
        ) from None
    if not isinstance(value, dict):
        raise RecordUsageError(f"{path}: the request body must be a JSON object")
    return value


def _header(item: str) -> tuple[str, str]:
    name, separator, value = item.partition(":")
    name = name.strip()
    if not separator or not name:
        raise RecordUsageError(f"--header {item!r} is not 'NAME: VALUE'")
    if is_secret_header(name):
        raise RecordUsageError(
            f"--header {name}: credentials are not taken on the command line",
            hint="put the key in an environment variable and pass --api-key-env NAME",
        )
    return name, value.strip()
