"""``--record DIR``: the probe's conversations saved as corpus cases.

Each conversation becomes one case, ``DIR/probe/<model>/<conversation>.yaml``
(id ``probe/<model>/<conversation>``), through the same pipeline as
`toolwire record` and `toolwire corpus add` (``toolwire.harness.corpus.importer``):
scrubbed (credential headers removed, the API key and anything key-like
replaced), dialect and features detected, validated as
`toolwire corpus validate` validates, written atomically. Nothing is ever
overwritten: every path the run could write is checked before the first
request, and each write refuses an existing file.

A conversation that shows no tool-calling feature (the model answered in
prose) is not a case the corpus can hold; it is listed as skipped. The
continuation step 6 sent without DeepSeek reasoning, refused with HTTP 400,
is saved as a negative case for ``reasoning.replay_missing`` and
``replay.assistant_altered`` (what `toolwire lint` finds in it).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from toolwire.harness.corpus.case_ids import slugify
from toolwire.harness.corpus.detect import detect_dialect, detect_features
from toolwire.harness.corpus.foreign import RawExchange
from toolwire.harness.corpus.import_block import RECORDER
from toolwire.harness.corpus.importer import AddOptions, AddResult, add_exchanges
from toolwire.harness.corpus.importer import scrubbed_interaction as _scrubbed
from toolwire.harness.corpus.loader import display_path
from toolwire.harness.corpus.scrub import Scrubber
from toolwire.harness.corpus.vocabulary import CASE_SUFFIXES, NEGATIVE_FEATURE
from toolwire.harness.errors import CorpusError, ToolwireError
from toolwire.harness.probe.runner import ProbeRun
from toolwire.harness.probe.session import Conversation
from toolwire.harness.redaction import redact

CASE_FOLDER = "probe"
# Every conversation a run can file (session.conversation / session.file).
CONVERSATION_SLUGS: tuple[str, ...] = (
    "basic-format",
    "schema-adherence",
    "single-tool-loop",
    "parallel-calls",
    "error-repair",
    "reasoning-dropped",
    "reasoning-not-replayed",
    "reasoning-replayed",
    "streaming-basic-format",
    "streaming-single-tool-loop",
)


class RecordExistsError(ToolwireError):
    """``--record`` would overwrite a case: refused before anything is sent."""

    exit_code = 2


@dataclass(frozen=True)
class Saved:
    cases: tuple[AddResult, ...]
    skipped: tuple[str, ...]  # "conversation: why"


def case_id(model: str, slug: str) -> str:
    return f"{CASE_FOLDER}/{slugify(model) or 'model'}/{slug}"


def check_free(root: Path, model: str) -> None:
    """Refuse, before probing, a folder where this model's cases already are."""
    for slug in CONVERSATION_SLUGS:
        for suffix in CASE_SUFFIXES:
            path = root / f"{case_id(model, slug)}{suffix}"
            if path.exists():
                raise RecordExistsError(
                    f"{display_path(path)}: already exists; --record never overwrites",
                    hint="record into another folder, or move the earlier cases away",
                )


def save_run(run: ProbeRun, root: Path, today: datetime.date) -> Saved:
    """Write every conversation of ``run`` below ``root``."""
    cases: list[AddResult] = []
    skipped: list[str] = []
    secrets = (run.endpoint.api_key,) if run.endpoint.api_key else ()
    model = run.profile.binding.model
    for conversation in run.conversations:
        if not conversation.exchanges:
            continue
        exchanges = [exchange.raw(index) for index, exchange in enumerate(conversation.exchanges)]
        why_not = _not_a_case(conversation, exchanges, secrets)
        if why_not:
            skipped.append(f"{conversation.slug}: {redact(why_not, secrets)}")
            continue
        block: dict[str, Any] = {}
        if conversation.violations:
            block = {
                "features": [NEGATIVE_FEATURE],
                "expect": {"violations": list(conversation.violations)},
            }
        options = AddOptions(
            corpus_root=root,
            case_id=case_id(model, conversation.slug),
            description=_description(run, conversation),
            secrets=secrets,
            provenance=_provenance(run, model, today),
            lint=False,  # a live exchange is kept; `corpus validate` reports its verdicts
        )
        cases.append(add_exchanges(exchanges, options, conversation.slug, block=block))
    return Saved(tuple(cases), tuple(skipped))


def _not_a_case(
    conversation: Conversation, exchanges: Sequence[RawExchange], secrets: Sequence[str]
) -> str:
    """Why the corpus cannot hold this conversation ('' when it can)."""
    scrubber = Scrubber.with_secrets(secrets)
    interactions = [_scrubbed(scrubber, exchange) for exchange in exchanges]
    try:
        dialect = detect_dialect(interactions, conversation.slug)
        features = detect_features(dialect, interactions, conversation.slug)
    except CorpusError as error:
        return error.message
    if not features and not conversation.violations:
        return "no tool call, result, thinking or stream to keep (the model answered in prose)"
    return ""


def _description(run: ProbeRun, conversation: Conversation) -> str:
    binding = run.profile.binding
    return f"toolwire probe {conversation.title}: {binding.model} at {binding.provider}"


def _provenance(run: ProbeRun, model: str, today: datetime.date) -> dict[str, Any]:
    parts = urlsplit(run.profile.binding.endpoint)
    return {
        "kind": "recorded",
        "endpoint": urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")),
        "model": model,
        "date": today.isoformat(),
        "recorder": f"{RECORDER} probe",
    }
