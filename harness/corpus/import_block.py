"""The ``toolwire:`` block of a case that ``toolwire corpus add`` imports:
its features, profile, description and provenance, each from what the user
asked for, else what the recording's own block declares, else what the
recording shows.
"""

from __future__ import annotations

import datetime
import email.utils
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from toolwire.conformance.profiles import DEFAULT_PROFILE, PROFILES
from toolwire.harness import __version__
from toolwire.harness.corpus.case import Interaction
from toolwire.harness.corpus.detect import detect_features, request_model
from toolwire.harness.corpus.vocabulary import FEATURES
from toolwire.harness.errors import CorpusError

RECORDER = f"toolwire {__version__}"


def case_features(
    dialect: str,
    interactions: Sequence[Interaction],
    source: str,
    asked: Sequence[str],
    block: Mapping[str, Any],
) -> tuple[str, ...]:
    """What the recording shows, with the features asked for (``--feature``)
    and the known ones its own ``toolwire:`` block declares."""
    wanted = set(detect_features(dialect, interactions, source)) | set(asked)
    declared = block.get("features")
    if isinstance(declared, list):
        wanted |= {item for item in declared if item in FEATURES}
    features = tuple(feature for feature in FEATURES if feature in wanted)
    if not features:
        raise CorpusError(
            source,
            "shows no tool-calling feature (no tool call, result, thinking or stream)",
            f"pass --feature with one of: {', '.join(FEATURES)}",
        )
    return features


def case_profile(dialect: str, chosen: str | None, block: Mapping[str, Any], source: str) -> str:
    """The profile chosen, else the block's when it fits the dialect, else the default."""
    declared = block.get("profile")
    declared_fits = isinstance(declared, str) and declared in PROFILES
    if chosen is None and declared_fits and PROFILES[str(declared)].dialect == dialect:
        chosen = str(declared)
    profile = chosen or DEFAULT_PROFILE[dialect]
    if profile not in PROFILES or PROFILES[profile].dialect != dialect:
        valid = [name for name, item in PROFILES.items() if item.dialect == dialect]
        raise CorpusError(
            source,
            f"profile {profile!r} is not a {dialect} profile",
            f"use one of: {', '.join(valid)}",
        )
    return profile


def case_description(
    given: str | None,
    block: Mapping[str, Any],
    dialect: str,
    interactions: Sequence[Interaction],
    calls: int,
) -> str:
    """The description given, else the block's, else one line made from the recording."""
    if given:
        return " ".join(given.split())
    declared = block.get("description")
    if isinstance(declared, str) and declared.strip():
        return " ".join(declared.split())
    model = request_model(interactions) or "the model"
    host = urlsplit(interactions[0].uri).hostname or "the endpoint"
    exchanges = len(interactions)
    streamed = " (streamed)" if any(i.is_stream() for i in interactions) else ""
    return (
        f"{model} at {host} over {exchanges} {plural(exchanges, 'exchange')}{streamed}: "
        f"{calls} tool {plural(calls, 'call')} ({dialect})."
    )


def case_provenance(
    block: Mapping[str, Any], interactions: Sequence[Interaction]
) -> dict[str, Any]:
    """The block's provenance, else where and when the recording was made."""
    declared = block.get("provenance")
    if isinstance(declared, Mapping):
        return dict(declared)
    first = interactions[0]
    parts = urlsplit(first.uri)
    return {
        "kind": "recorded",
        "endpoint": urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")),
        "model": request_model(interactions) or "unknown",
        "date": _recorded_date(interactions),
        "recorder": f"vcrpy (imported by {RECORDER})",
    }


def _recorded_date(interactions: Sequence[Interaction]) -> str:
    """The response's Date header (when the server answered), else today (UTC)."""
    for interaction in interactions:
        header = interaction.response_header("Date")
        if header:
            try:
                return email.utils.parsedate_to_datetime(header).date().isoformat()
            except (TypeError, ValueError):
                continue
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def plural(count: int, noun: str) -> str:
    return noun if count == 1 else f"{noun}s"
