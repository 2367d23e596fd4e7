"""Options several commands share, defined once so they read and check alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from harness.errors import ToolwireError

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_TIMEOUT = 10.0


class ProfileUsageError(ToolwireError):
    exit_code = 2


def parse_profiles(values: tuple[str, ...]) -> dict[str, str]:
    """``--profile DIALECT=PROFILE`` values as a dialect -> profile map; a
    profile belongs to one dialect, so a mismatched pair is refused."""
    from conformance.profiles import PROFILES
    from harness.model import DIALECTS

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


def timeout_option(help_text: str, default: float = DEFAULT_TIMEOUT) -> Callable[[F], F]:
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0.01),
        default=default,
        show_default=True,
        help=help_text,
    )


def profiles_option(help_text: str) -> Callable[[F], F]:
    """``--profile DIALECT=PROFILE`` (repeatable); parse with ``parse_profiles``."""
    return click.option(
        "--profile", "profiles", multiple=True, metavar="DIALECT=PROFILE", help=help_text
    )
