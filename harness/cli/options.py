"""Options several commands share, defined once so they read and check alike."""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from toolwire.harness.errors import ToolwireError

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_TIMEOUT = 10.0


class ProfileUsageError(ToolwireError):
    exit_code = 2


def parse_profiles(values: tuple[str, ...]) -> dict[str, str]:
    """``--profile DIALECT=PROFILE`` values as a dialect -> profile map; a
    profile belongs to one dialect, so a mismatched pair is refused."""
    from toolwire.conformance.profiles import PROFILES
    from toolwire.harness.model import DIALECTS

    profiles = {}
    for value in values:
        dialect, sep, profile = value.partition("=")
        if not sep or dialect not in DIALECTS or profile not in PROFILES:
            raise ProfileUsageError(
                f"--profile {value!r} is not DIALECT=PROFILE",
                hint=f"dialects: {', '.join(DIALECTS)}; profiles: {', '.join(PROFILES)}",
            )
        if PROFILES[profile].dialect != dialect:
            raise ProfileUsageError(
                f"--profile {value!r}: {profile} is not a profile of {dialect}",
                hint=f"{profile} judges {PROFILES[profile].dialect}",
            )
        profiles[dialect] = profile
    return profiles


def api_key_from_env(
    variable: str | None, dialect: str, usage_error: type[ToolwireError], without_key: str
) -> str | None:
    """The API key from ``variable`` (default: the dialect's usual one). A
    variable named explicitly must be set; an unset default goes on without a
    key (a local server needs none) after saying so: "``without_key``"."""
    from toolwire.harness.corpus.record import DEFAULT_KEY_ENV

    name = variable or DEFAULT_KEY_ENV[dialect]
    key = os.environ.get(name, "").strip()
    if key:
        return key
    if variable is not None:
        raise usage_error(
            f"environment variable {name} is not set or empty",
            hint=f"export {name}=... (the key is read from the environment only)",
        )
    click.echo(f"toolwire: note: ${name} is not set; {without_key}", err=True)
    return None


CORPUS_HELP = "Corpus folder (default: the bundled corpus)."
CORPUS_TO_WRITE_HELP = "Corpus folder to add the case to (default: the bundled corpus)."


def _corpus_folder(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    from toolwire.harness.corpus.loader import corpus_folder_problem

    problem = corpus_folder_problem(value) if value is not None else None
    if problem is not None:
        raise click.BadParameter(f"{value}: {problem[0]} ({problem[1]})", ctx, param)
    return value


def corpus_option(
    help_text: str | None = None,
    *,
    to_write: bool = False,
    checked: bool = False,
    envvar: str | None = None,
) -> Callable[[F], F]:
    """``--corpus FOLDER`` (the ``corpus_path`` argument; None means the bundled
    corpus). ``to_write``: the corpus a new case goes to, so a file is refused
    (``corpus_cmd.corpus_to_write`` picks the default); ``checked``: a folder
    that cannot be read as a corpus is a usage error before the command runs."""
    if help_text is None:
        help_text = CORPUS_TO_WRITE_HELP if to_write else CORPUS_HELP
    return click.option(
        "--corpus",
        "corpus_path",
        type=click.Path(file_okay=not to_write, path_type=Path),
        default=None,
        callback=_corpus_folder if checked else None,
        envvar=envvar,
        help=help_text,
    )


def adapter_option(help_text: str) -> Callable[[F], F]:
    return click.option(
        "--adapter", "adapter_spec", default="reference", show_default=True, help=help_text
    )


def text_or_json_option(help_text: str) -> Callable[[F], F]:
    """``--format text|json``: people read text, scripts read JSON."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=help_text,
    )


# The longest --timeout: a week. Longer (or inf) is no limit at all, and
# beyond what the thread and socket waits underneath accept.
MAX_TIMEOUT = 7 * 24 * 3600.0


def _finite_timeout(_ctx: click.Context, _param: click.Parameter, value: float) -> float:
    # FloatRange lets nan through (every comparison with nan is false): a
    # timeout of nan would be no timeout at all.
    if not math.isfinite(value) or value > MAX_TIMEOUT:
        raise click.BadParameter(
            f"{value!r} is not a number of seconds between 0.01 and {MAX_TIMEOUT:g} (a week)"
        )
    return value


def timeout_option(
    help_text: str, default: float = DEFAULT_TIMEOUT, envvar: str | None = None
) -> Callable[[F], F]:
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0.01),
        default=default,
        show_default=True,
        callback=_finite_timeout,
        envvar=envvar,
        help=help_text,
    )


def profiles_option(help_text: str, envvar: str | None = None) -> Callable[[F], F]:
    """``--profile DIALECT=PROFILE`` (repeatable; from ``envvar``, separated by
    spaces); parse with ``parse_profiles``."""
    return click.option(
        "--profile",
        "profiles",
        multiple=True,
        metavar="DIALECT=PROFILE",
        envvar=envvar,
        help=help_text,
    )


def schema_option(help_text: str, module: str) -> Callable[[F], F]:
    """``--schema``: print the JSON Schema that ``module``'s ``schema_text()``
    gives and exit before anything else runs. The module is imported only then,
    so the option costs nothing at start-up."""

    def print_schema(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if not value or ctx.resilient_parsing:
            return
        click.echo(importlib.import_module(module).schema_text(), nl=False)
        ctx.exit(0)

    return click.option(
        "--schema",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=print_schema,
        help=help_text,
    )
