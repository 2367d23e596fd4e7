"""`toolwire corpus add`: a cassette recorded elsewhere becomes a corpus case.

The steps, each refusing with a one-line ``CorpusError``:
1. read the cassette (``toolwire.harness.corpus.foreign``: vcrpy or pytest-recording
   layout, compressed bodies decoded);
2. scrub every exchange (``toolwire.harness.corpus.scrub``) and store bodies the way
   the writer does (indented JSON), with ``Content-Length`` matching them and
   no ``Content-Encoding`` / ``Transfer-Encoding``, so vcrpy replays them;
3. detect the dialect and features (``toolwire.harness.corpus.detect``);
4. refuse a recording the corpus already holds (naming the case), and
   assign a readable id (``<main-feature>/<slug>``; a different recording
   under a taken slug gets a distinguishing word: dialect, model, tool)
   unless one is given;
5. lint it (``toolwire.harness.corpus.lint_gate``): a recording that breaks a MUST
   rule is refused with its verdicts, or with ``negative`` kept as a
   negative case expecting exactly what lint finds;
6. run the corpus validator on the finished file in a scratch corpus: what
   is written always validates and holds no secret;
7. write it atomically, never over an existing case unless forced.

``toolwire record`` uses the same pipeline for what it records.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.atomic_write import write_atomic
from toolwire.harness.corpus.case import Interaction, frozen_headers
from toolwire.harness.corpus.case_ids import readable_id, slugify
from toolwire.harness.corpus.detect import (
    count_tool_calls,
    detect_dialect,
    first_tool_name,
    main_feature,
    request_model,
)
from toolwire.harness.corpus.foreign import RawExchange, first_header, read_foreign_cassette
from toolwire.harness.corpus.import_block import (
    case_description,
    case_features,
    case_profile,
    case_provenance,
    plural,
)
from toolwire.harness.corpus.lint_gate import lint_case_text, summary
from toolwire.harness.corpus.loader import display_path
from toolwire.harness.corpus.scrub import Scrubber
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.corpus.vocabulary import (
    CASE_SUFFIXES,
    FEATURES,
    ID_PATTERN,
    METADATA_FORMAT,
    NEGATIVE_FEATURE,
)
from toolwire.harness.corpus.writer import dump_case, write_case
from toolwire.harness.errors import CorpusError
from toolwire.harness.redaction import redact

_DROPPED_RESPONSE_HEADERS = ("content-encoding", "transfer-encoding")
_ID = re.compile(ID_PATTERN)


class CaseExistsError(CorpusError):
    """The id names a case already in the corpus (and --force was not given)."""


@dataclass(frozen=True)
class AddOptions:
    """How to add a case. Empty values mean: detect, or derive."""

    corpus_root: Path
    case_id: str | None = None
    dialect: str | None = None
    profile: str | None = None
    features: tuple[str, ...] = ()
    description: str | None = None
    force: bool = False
    # Known secret values (the key a recording used): removed wherever found.
    secrets: tuple[str, ...] = ()
    # A complete provenance block (what `toolwire record` knows); else derived.
    provenance: Mapping[str, Any] | None = None
    # Keep a recording that breaks rules as a negative case expecting them.
    negative: bool = False
    # Refuse a recording that breaks a MUST rule. `toolwire record` keeps what
    # it paid for and leaves the verdicts to `corpus validate`.
    lint: bool = True


@dataclass(frozen=True)
class AddResult:
    case_id: str
    path: Path
    dialect: str
    profile: str
    features: tuple[str, ...]
    interactions: int
    tool_calls: int
    scrubbed: str
    replaced: bool
    # A negative case: the rule codes it is kept to trigger.
    expected_violations: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line for the user: what was written where."""
        verb = "replaced" if self.replaced else "added"
        expects = (
            f"; expects: {', '.join(self.expected_violations)}" if self.expected_violations else ""
        )
        return (
            f"{verb} {self.case_id} ({self.dialect}, profile {self.profile}; "
            f"features: {', '.join(self.features)}{expects}; {self.interactions} "
            f"{plural(self.interactions, 'interaction')}, {self.tool_calls} tool "
            f"{plural(self.tool_calls, 'call')}) -> {display_path(self.path)}"
        )


def import_cassette(cassette: Path, options: AddOptions) -> AddResult:
    """Add the cassette at ``cassette`` to the corpus (see the module docstring)."""
    exchanges, block = read_foreign_cassette(cassette)
    return add_exchanges(
        exchanges, options, display_path(cassette), block=block, slug=slugify(cassette.stem)
    )


def add_exchanges(
    exchanges: Sequence[RawExchange],
    options: AddOptions,
    source: str,
    block: Mapping[str, Any] | None = None,
    slug: str = "case",
) -> AddResult:
    """Scrub, detect, check and write ``exchanges`` as one case."""
    try:
        return _add(exchanges, options, source, block or {}, slug)
    except CorpusError as error:
        raise _without_secrets(error, options.secrets) from None


def _add(
    exchanges: Sequence[RawExchange],
    options: AddOptions,
    source: str,
    block: Mapping[str, Any],
    slug: str,
) -> AddResult:
    scrubber = Scrubber.with_secrets(options.secrets)
    interactions = [scrubbed_interaction(scrubber, exchange) for exchange in exchanges]
    dialect = options.dialect or detect_dialect(interactions, source)
    features = case_features(dialect, interactions, source, options.features, block)
    profile = case_profile(dialect, options.profile, block, source)

    root = options.corpus_root
    recording = _interactions_part(dump_case({}, interactions))
    # Only an id of toolwire's choosing could silently make a second copy.
    duplicate = None if options.case_id else _same_recording(root, recording)
    if duplicate is not None and not options.force:
        raise CaseExistsError(
            display_path(duplicate[1]),
            f"this recording is already in the corpus as case {duplicate[0]!r}",
            "nothing to add; pass --force to write it again over that case",
        )
    replaced_id = duplicate[0] if duplicate is not None and options.force else None
    case_id = (
        options.case_id
        or replaced_id
        or readable_id(
            main_feature(features),
            slug,
            (dialect, request_model(interactions) or "", first_tool_name(interactions) or ""),
            lambda candidate: _existing(root, candidate) is not None,
            fallback=hashlib.sha256(recording.encode("utf-8")).hexdigest()[:6],
        )
    )
    _check_id(case_id, source)
    target = root / f"{case_id}.yaml"
    existing = _existing(root, case_id)
    if existing is not None and not options.force:
        raise CaseExistsError(
            display_path(existing),
            f"case {case_id!r} already exists",
            "pass --force to replace it, or --id to add this cassette under another id",
        )

    calls = count_tool_calls(dialect, interactions, source)
    metadata: dict[str, Any] = {
        "format": METADATA_FORMAT,
        "id": case_id,
        "description": case_description(options.description, block, dialect, interactions, calls),
        "features": list(features),
        "dialect": dialect,
        "profile": profile,
        "provenance": dict(options.provenance or case_provenance(block, interactions)),
        "expect": dict(block["expect"]) if isinstance(block.get("expect"), Mapping) else {},
    }
    text = dump_case(metadata, interactions)
    if options.lint or options.negative:
        text, metadata = _lint_gate(text, metadata, interactions, options, display_path(target))
        features = tuple(metadata["features"])
    _check_case_text(text, case_id, display_path(target))
    write_case(target, text, overwrite=options.force)
    if existing is not None and existing != target:
        existing.unlink(missing_ok=True)  # a forced .yaml replaces an old .yml
    return AddResult(
        case_id=case_id,
        path=target,
        dialect=dialect,
        profile=profile,
        features=features,
        interactions=len(interactions),
        tool_calls=calls,
        scrubbed=scrubber.log.summary(),
        replaced=existing is not None,
        expected_violations=tuple(metadata["expect"].get("violations", ())),
    )


def scrubbed_interaction(scrubber: Scrubber, exchange: RawExchange) -> Interaction:
    """One exchange scrubbed and stored as the writer stores it."""
    request_headers = scrubber.headers(exchange.request_headers)
    response_headers = {
        name: values
        for name, values in scrubber.headers(exchange.response_headers).items()
        if name.lower() not in _DROPPED_RESPONSE_HEADERS
    }
    response_type = first_header(response_headers, "content-type")
    stream = (response_type or "").split(";", 1)[0].strip().lower() == "text/event-stream"
    request_body = exchange.request_body
    if request_body is not None:
        request_body = _pretty_json(
            scrubber.body(request_body, first_header(request_headers, "content-type"))
        )
    response_body = scrubber.body(exchange.response_body, response_type)
    if not stream:
        response_body = _pretty_json(response_body)
    _set_length(request_headers, request_body)
    _set_length(response_headers, response_body)
    return Interaction(
        method=exchange.method,
        uri=scrubber.uri(exchange.uri),
        request_headers=frozen_headers({k: tuple(v) for k, v in request_headers.items()}),
        request_body_text=request_body,
        status_code=exchange.status_code,
        status_message=exchange.status_message,
        response_headers=frozen_headers({k: tuple(v) for k, v in response_headers.items()}),
        response_body_text=response_body,
        index=exchange.index,
    )


def _check_id(case_id: str, source: str) -> None:
    if not _ID.match(case_id):
        raise CorpusError(
            source,
            f"{case_id!r} is not a case id",
            "ids are lower-case slug segments joined by '/', e.g. parallel/three-cities",
        )


def _existing(root: Path, case_id: str) -> Path | None:
    for suffix in CASE_SUFFIXES:
        path = root / f"{case_id}{suffix}"
        if path.exists():
            return path
    return None


def _lint_gate(
    text: str,
    metadata: dict[str, Any],
    interactions: Sequence[Interaction],
    options: AddOptions,
    target: str,
) -> tuple[str, dict[str, Any]]:
    """The case text and metadata to write: refused when it breaks a MUST rule,
    unless it is to be kept as a negative case expecting exactly what lint finds."""
    outcome = lint_case_text(text, target)
    if outcome.unreadable is not None:
        raise CorpusError(target, f"toolwire lint cannot read the case: {outcome.unreadable}")
    if not options.negative:
        if outcome.must:
            rules = "MUST rule" if len(outcome.must) == 1 else "MUST rules"
            musts = [line for line in outcome.lines if line.startswith("MUST")]
            raise CorpusError(
                target,
                f"the recording breaks {len(outcome.must)} {rules}: {summary(musts)}",
                "fix what produced it, or pass --negative to keep it as a negative case "
                "that expects these violations",
            )
        return text, metadata
    if not outcome.codes:
        raise CorpusError(
            target,
            "--negative: the recording breaks no rule, so it cannot be a negative case",
            "drop --negative to add it as a good case",
        )
    features = [f for f in FEATURES if f in {*metadata["features"], NEGATIVE_FEATURE}]
    expect = {**metadata["expect"], "violations": list(outcome.codes)}
    negative = {**metadata, "features": features, "expect": expect}
    return dump_case(negative, interactions), negative


def _same_recording(root: Path, wanted: str) -> tuple[str, Path] | None:
    """The case that already holds exactly these exchanges, if any.

    The writer stores exchanges deterministically, so the same recording,
    scrubbed the same way, gives the same text below ``interactions:``.
    """
    if not root.is_dir():
        return None
    for path in sorted(root.rglob("*")):
        if path.suffix not in CASE_SUFFIXES or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if _interactions_part(text) == wanted:
            case_id = path.relative_to(root).with_suffix("").as_posix()
            return case_id, path
    return None


def _interactions_part(text: str) -> str:
    marker = "\ninteractions:"
    at = text.find(marker)
    return text[at:] if at >= 0 else text


def _check_case_text(text: str, case_id: str, target: str) -> None:
    """Validate the finished file alone in a scratch corpus (same checks as
    `toolwire corpus validate`, secrets included). Its lint step is left out:
    ``_lint_gate`` judged this very text already (or a live recording is kept
    as is)."""
    with tempfile.TemporaryDirectory(prefix="toolwire-add-") as folder:
        root = Path(folder)
        write_atomic(root / f"{case_id}.yaml", text)
        report = validate_corpus(root, lint=False)
    if report.ok:
        return
    first = report.problems[0]
    more = len(report.problems) - 1
    hint = first.hint or "fix the cassette"
    if more:
        hint = f"{hint}; and {more} more {plural(more, 'problem')}"
    raise CorpusError(target, f"the case would not validate: {first.message}", hint)


def _pretty_json(text: str) -> str:
    """Indented JSON, exactly as the writer stores it, so Content-Length
    can be set to the stored body's length."""
    try:
        value = json_text.loads(text, object_pairs_hook=_no_duplicates)
        pretty = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
        pretty.encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError):
        return text
    return pretty if json.loads(pretty) == value else text


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _set_length(headers: dict[str, list[str]], body: str | None) -> None:
    for name in headers:
        if name.lower() == "content-length":
            headers[name] = [str(len((body or "").encode("utf-8")))]


def _without_secrets(error: CorpusError, secrets: Sequence[str]) -> CorpusError:
    def clean(text: str) -> str:
        for secret in secrets:
            if secret:
                text = text.replace(secret, "REDACTED")
        return redact(text)

    message = error.message.removeprefix(f"{error.source}: ")
    hint = clean(error.hint) if error.hint else None
    return type(error)(clean(error.source), clean(message), hint)
