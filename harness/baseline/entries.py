"""Baselines: known failures, listed one check at a time, that cannot go stale.

A baseline file has one entry per line, ``case-id::rule-code  # reason``;
blank lines and lines starting with ``#`` are ignored. A listed failure
becomes ``xfail``; a listed entry that now passes (or no longer applies to
its case) becomes ``stale`` and fails the run, so the list shrinks as the
converter improves.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from toolwire.conformance.catalogue import RULE_CODES
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.errors import ToolwireError


class BaselineError(ToolwireError):
    exit_code = 2


@dataclass(frozen=True)
class BaselineEntry:
    case_id: str
    rule_code: str
    reason: str
    line: int

    @property
    def key(self) -> tuple[str, str]:
        return (self.case_id, self.rule_code)


def parse_baseline(
    text: str, source: str, case_ids: Iterable[str] | None = None
) -> list[BaselineEntry]:
    """Read a baseline; any mistake raises BaselineError naming the line and the fix."""
    known_cases = set(case_ids) if case_ids is not None else None
    entries: list[BaselineEntry] = []
    seen: dict[tuple[str, str], int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        entry_text, _, reason = stripped.partition("#")
        entry_text, reason = entry_text.strip(), reason.strip()
        where = f"{source}:{number}"
        if "::" not in entry_text or entry_text.count("::") != 1:
            raise BaselineError(
                f"{where}: {entry_text!r} is not an entry",
                hint="write case-id::rule-code  # reason",
            )
        case_id, rule_code = (part.strip() for part in entry_text.split("::"))
        if rule_code not in RULE_CODES:
            raise BaselineError(
                f"{where}: unknown rule code {rule_code!r}", hint=_suggest(rule_code, RULE_CODES)
            )
        if known_cases is not None and case_id not in known_cases:
            raise BaselineError(
                f"{where}: no case {case_id!r} in the corpus", hint=_suggest(case_id, known_cases)
            )
        if not reason:
            raise BaselineError(
                f"{where}: {entry_text} has no reason",
                hint="say why after a '#': the reason is what the next reader needs",
            )
        if (case_id, rule_code) in seen:
            first = seen[(case_id, rule_code)]
            raise BaselineError(
                f"{where}: {entry_text} is listed twice (first on line {first})",
                hint="delete one of the two lines",
            )
        seen[(case_id, rule_code)] = number
        entries.append(BaselineEntry(case_id, rule_code, reason, number))
    return entries


def load_baseline(path: Path, case_ids: Iterable[str] | None = None) -> list[BaselineEntry]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BaselineError(f"baseline {path} is not UTF-8 text", hint="save it as UTF-8") from None
    except OSError as error:
        raise BaselineError(f"cannot read baseline {path}: {error.strerror or error}") from error
    return parse_baseline(text, str(path), case_ids)


def apply_baseline(
    verdicts: Sequence[Verdict],
    entries: Sequence[BaselineEntry],
    selected_cases: Iterable[str],
) -> list[Verdict]:
    """Mark listed failures xfail, and add a stale verdict for each listed
    entry of a selected case that did not fail."""
    by_key = {entry.key: entry for entry in entries}
    applied: list[Verdict] = []
    matched: set[tuple[str, str]] = set()
    for verdict in verdicts:
        entry = by_key.get((verdict.case_id, verdict.rule_code))
        if entry is None:
            applied.append(verdict)
            continue
        matched.add(entry.key)
        if verdict.outcome in ("fail", "warn"):
            applied.append(replace(verdict, outcome="xfail", baseline_reason=entry.reason))
        else:
            applied.append(
                replace(
                    verdict,
                    outcome="stale",
                    baseline_reason=entry.reason,
                    message=f"delete line {entry.line} of the baseline: it passes now",
                )
            )
    selected = set(selected_cases)
    adapter = verdicts[0].adapter if verdicts else ""
    for entry in entries:
        if entry.key in matched or entry.case_id not in selected:
            continue
        applied.append(
            Verdict(
                entry.case_id,
                entry.rule_code,
                adapter,
                "stale",
                message=f"delete line {entry.line} of the baseline: the rule no longer "
                "applies to this case",
                baseline_reason=entry.reason,
            )
        )
    return applied


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"did you mean {close[0]!r}?" if close else "check the spelling"
