"""`toolwire probe`: probe a live endpoint's tool calling and write its capability profile.

A thin layer over ``toolwire.harness.probe``. The profile JSON goes to stdout (or
``--out FILE``); the steps' progress goes to stderr. The API key is read
from an environment variable only and is never printed or written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolwire.harness.atomic_write import write_atomic
from toolwire.harness.cli.options import api_key_from_env, schema_option, timeout_option
from toolwire.harness.errors import ToolwireError

if TYPE_CHECKING:
    from toolwire.harness.probe.evidence import StepResult

DIALECT_CHOICES = ("openai-chat", "anthropic-messages", "gemini")
DEFAULT_TIMEOUT = 120.0


class ProbeCommandError(ToolwireError):
    exit_code = 2


@click.command("probe")
@click.option(
    "--base-url",
    required=True,
    help="API base URL, e.g. https://api.openai.com/v1, https://api.deepseek.com, "
    "http://127.0.0.1:8000/v1, https://api.anthropic.com.",
)
@click.option("--model", required=True, help="The model to probe, as the API names it.")
@click.option(
    "--dialect",
    required=True,
    type=click.Choice(DIALECT_CHOICES),
    help="What the endpoint speaks (DeepSeek, Qwen, vLLM: openai-chat).",
)
@click.option(
    "--record",
    "record_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Save every exchange as corpus cases under DIR/probe/<model>/ (never overwrites).",
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the profile JSON to FILE instead of stdout.",
)
@click.option(
    "--api-key-env",
    metavar="VAR",
    help="Environment variable holding the API key (default: OPENAI_API_KEY or "
    "ANTHROPIC_API_KEY, by dialect).",
)
@timeout_option("Seconds to wait for each answer.", default=DEFAULT_TIMEOUT)
@schema_option(
    "Print the JSON Schema of the profile (draft 2020-12) and exit.",
    "toolwire.harness.probe.schema",
)
def probe(
    base_url: str,
    model: str,
    dialect: str,
    record_dir: Path | None,
    out_file: Path | None,
    api_key_env: str | None,
    timeout: float,
) -> None:
    """Probe a model's tool calling at a live endpoint and write its capability profile.

    Seven steps (docs/probe.md): basic format, schema adherence, single-tool
    loop, parallel calls, error repair, reasoning-state replay, streaming;
    with three probe tools that have no side effects. Exit 0 when the probe
    ran (whatever it found), 2 on a usage error, 3 when the endpoint cannot
    be reached or refuses the credentials.
    """
    import datetime

    from toolwire.harness.corpus.scrub import Scrubber
    from toolwire.harness.probe.recording import check_free, save_run
    from toolwire.harness.probe.runner import ProbeOptions, run_probe
    from toolwire.harness.probe.schema import validate_profile

    if record_dir is not None:
        check_free(record_dir, model)
    options = ProbeOptions(
        base_url=base_url,
        model=model,
        dialect=dialect,
        api_key=api_key_from_env(api_key_env, dialect, ProbeCommandError, "probing without a key"),
        timeout=timeout,
    )
    shown = Scrubber().uri(base_url)  # no user:password@ or key parameter on the terminal
    click.echo(f"toolwire probe: {model} ({dialect}) at {shown}", err=True)
    run = run_probe(options, progress=lambda item: click.echo(f"  step {_line(item)}", err=True))
    document = run.profile.as_json()
    problems = validate_profile(document)
    if problems:
        raise ToolwireError(f"the profile breaks its own schema: {problems[0]} (a toolwire bug)")
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if record_dir is not None:
        saved = save_run(run, record_dir, datetime.datetime.now(datetime.UTC).date())
        for case in saved.cases:
            click.echo(f"recorded: {case.summary()}", err=True)
        for reason in saved.skipped:
            click.echo(f"not recorded: {reason}", err=True)
    if out_file is None:
        click.echo(text, nl=False)
    else:
        _write(out_file, text)
        click.echo(f"profile: {out_file}", err=True)


def _line(result: StepResult) -> str:
    """``1 basicFormat: pass, toolCallFormat = openai (reason)``."""
    item = result.evidence
    value = result.value
    shown = str(value).lower() if isinstance(value, bool) else value
    decided = f", {item.dimension} = {shown}" if item.dimension else ""
    return f"{item.step} {item.name}: {item.status}{decided} ({item.reason})"


def _write(path: Path, text: str) -> None:
    """Atomically: a reader never sees half a profile."""
    write_atomic(path, text)
