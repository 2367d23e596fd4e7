"""A project's own settings for `toolwire run`: ``[tool.toolwire]`` in its
pyproject.toml and ``TOOLWIRE_*`` environment variables.

Every option of `run` may be set once for a project instead of on every
command line. The precedence is click's: the command line, then the
environment variable (``TOOLWIRE_ADAPTER``, ``TOOLWIRE_FAIL_ON``, ...), then
``[tool.toolwire]``, then the built-in default. The pyproject.toml is the
first one found from the working folder upwards; relative paths in it are
read from its folder. A value it gets wrong is an error naming the file and
the key, before anything runs.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from toolwire.harness.errors import ToolwireError

ENV_PREFIX = "TOOLWIRE_"
TABLE = "[tool.toolwire]"
# key in [tool.toolwire] -> the parameter of `toolwire run` it sets
RUN_KEYS: dict[str, str] = {
    "adapter": "adapter_spec",
    "corpus": "corpus_path",
    "select": "select",
    "baseline": "baseline_path",
    "report-dir": "report_dir",
    "format": "output_format",
    "timeout": "timeout",
    "jobs": "jobs",
    "profiles": "profiles",
    "proxy-cmd": "proxy_command",
    "progress": "progress_setting",
    "fail-on": "fail_on",
    "verbose": "verbose",
}
PATH_KEYS = frozenset({"corpus", "baseline", "report-dir"})


class ConfigError(ToolwireError):
    exit_code = 2


def env_name(key: str) -> str:
    """The environment variable of a ``[tool.toolwire]`` key: ``TOOLWIRE_FAIL_ON``."""
    return ENV_PREFIX + key.upper().replace("-", "_")


@dataclass(frozen=True)
class ProjectConfig:
    path: Path  # the pyproject.toml
    values: Mapping[str, Any]  # its [tool.toolwire] table

    def where(self, key: str) -> str:
        return f"{self.path} {TABLE} {key}"


def find_pyproject(start: Path) -> Path | None:
    """The first pyproject.toml in ``start`` or a folder above it."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def read_project_config(start: Path | None = None) -> ProjectConfig | None:
    """The ``[tool.toolwire]`` table of the nearest pyproject.toml, or None
    when there is none (or it has no such table)."""
    path = find_pyproject((start or Path.cwd()).resolve())
    if path is None:
        return None
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot be read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    tool = document.get("tool")
    table = tool.get("toolwire") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {TABLE} is not a table")
    return ProjectConfig(path, table)


def run_defaults(
    ctx: click.Context, command: click.Command, config: ProjectConfig
) -> dict[str, Any]:
    """The ``default_map`` of `toolwire run` from ``config``: each value
    checked as its option would check it, a wrong one a ConfigError naming
    the file and key."""
    from toolwire.harness.corpus.vocabulary import unknown_value_hint

    params = {param.name: param for param in command.params}
    defaults: dict[str, Any] = {}
    for key, raw in config.values.items():
        name = RUN_KEYS.get(key)
        if name is None:
            raise ConfigError(
                f"{config.where(key)}: not an option of toolwire run",
                hint=unknown_value_hint(key, RUN_KEYS),
            )
        value = _shaped(config, key, raw)
        param = params[name]
        try:
            param.process_value(ctx, value)
        except click.BadParameter as error:
            raise ConfigError(f"{config.where(key)}: {error.message}") from None
        defaults[name] = value
    return defaults


def _shaped(config: ProjectConfig, key: str, raw: Any) -> Any:
    """A TOML value as the option takes it: paths read from the file's
    folder, ``profiles`` a list of DIALECT=PROFILE (or a dialect table)."""
    if key == "profiles":
        if isinstance(raw, dict):
            raw = [f"{dialect}={profile}" for dialect, profile in raw.items()]
        if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
            raise ConfigError(
                f"{config.where(key)}: {raw!r} is not a list of DIALECT=PROFILE strings",
                hint='profiles = ["anthropic-messages=anthropic-strict"]',
            )
        from toolwire.harness.cli.options import parse_profiles

        try:
            parse_profiles(tuple(raw))
        except ToolwireError as error:
            message = str(error).removeprefix("--profile ")
            raise ConfigError(f"{config.where(key)}: {message}") from None
        return tuple(raw)
    if key == "verbose":
        if not isinstance(raw, bool):
            raise ConfigError(f"{config.where(key)}: {raw!r} is not true or false")
        return raw
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise ConfigError(f"{config.where(key)}: {raw!r} is not a string or a number")
    if key in PATH_KEYS:
        if not isinstance(raw, str) or not raw.strip():
            raise ConfigError(f"{config.where(key)}: {raw!r} is not a path")
        return str(config.path.parent / raw)
    return raw


def config_hint() -> str:
    adapter = env_name("adapter")
    return f'--adapter SPEC, {adapter}=SPEC, or adapter = "SPEC" in {TABLE} of pyproject.toml'


def source_of(ctx: click.Context, name: str) -> str:
    """Where a parameter's value came from, for an error message."""
    source = ctx.get_parameter_source(name)
    if source is click.core.ParameterSource.ENVIRONMENT:
        return "the environment"
    if source is click.core.ParameterSource.DEFAULT_MAP:
        return TABLE
    return "the command line"


class ConfiguredCommand(click.Command):
    """A command whose defaults come from ``[tool.toolwire]`` (under the
    command line and the environment, as click's default_map is)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing and not _asks_for_help(args, ctx):
            config = read_project_config()
            if config is not None:
                ctx.default_map = {**(ctx.default_map or {}), **run_defaults(ctx, self, config)}
        try:
            return super().parse_args(ctx, args)
        except click.BadParameter as error:
            # A wrong value from the environment: say which variable holds it.
            param = error.param
            if (
                param is not None
                and param.name
                and isinstance(param.envvar, str)
                and ctx.get_parameter_source(param.name) is click.core.ParameterSource.ENVIRONMENT
            ):
                error.param_hint = f"${param.envvar} (for {param.get_error_hint(ctx)})"
            raise


def _asks_for_help(args: list[str], ctx: click.Context) -> bool:
    return any(arg in ctx.help_option_names for arg in args)
