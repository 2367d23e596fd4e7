"""A converter's release history: which verdicts each release adds and removes.

Pure functions over plain data (no subprocess, no network):

* ``parse_history`` reads the ``[history.<name>]`` tables of
  ``reports/thirdparty.toml`` (which package, which releases, which extra's
  adapters); ``parse_releases`` reads ``--history litellm=1.80.0,1.85.0``;
* ``parse_fixes`` reads ``reports/history/<name>/fixes.toml``: the fixes
  named in the library's changelog and issues, each with its URL, its
  release and the rules (and optionally cases) its effect shows in;
* ``summarise_run`` keeps of one results document what the history needs
  (every verdict's outcome, the messages of those that are not a pass): the
  committed ``summary.json`` of a release, small beside ``results.json``;
* ``diff_releases`` turns consecutive releases into steps: per adapter, the
  findings (``case::rule`` with outcome fail, warn, error or stale) that
  appeared and disappeared, each beside the fixes that explain it.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from toolwire.harness.errors import ToolwireError

# What counts as a finding: a verdict that says the converter is wrong.
FINDING_OUTCOMES = frozenset({"fail", "warn", "error", "stale"})
_VERSION = re.compile(r"^\d+(\.\d+)*([.-]?(post|rc|a|b|dev)\d*)?$")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


class HistoryError(ToolwireError):
    """A history table, a ``--history`` option or a fixes file is malformed."""

    exit_code = 2


@dataclass(frozen=True)
class HistorySpec:
    """The releases of one package to judge, with the adapters of one extra."""

    name: str  # reports/history/<name>/
    package: str  # the PyPI distribution whose releases are installed
    extra: str  # the pyproject extra whose adapters run (its pin replaced)
    releases: tuple[str, ...]


@dataclass(frozen=True)
class Fix:
    """A fix named in the library's changelog or issue tracker."""

    release: str  # the first release that carries it
    title: str
    url: str
    rules: tuple[str, ...]  # rule codes or fnmatch patterns the fix shows in
    cases: tuple[str, ...] = ()  # optional case patterns; empty: any case
    adapters: tuple[str, ...] = ()  # optional adapter names; empty: any


@dataclass(frozen=True)
class Change:
    """One finding that appeared or disappeared between two releases."""

    case: str
    rule: str
    old: str | None  # outcome before (None: no such verdict)
    new: str | None  # outcome after
    message: str  # the finding's message (from whichever side has it)

    @property
    def key(self) -> str:
        return f"{self.case}::{self.rule}"


@dataclass(frozen=True)
class Step:
    """One adapter from one release to the next."""

    adapter: str
    old: str
    new: str
    appeared: tuple[Change, ...]
    disappeared: tuple[Change, ...]
    fixes: tuple[Fix, ...]  # fixes released in (old, new] that match a change
    unexplained: tuple[Change, ...]  # changes no fix of (old, new] matches
    problem: str = ""  # a side without results: no diff
    # Findings not comparable because the conversion raised on their case on
    # one side: the convert error itself is the change shown.
    masked: tuple[Change, ...] = ()


@dataclass
class RunSummary:
    """What the history keeps of one adapter's run on one release."""

    adapter: str
    version: str  # the library's version the adapter reported
    totals: dict[str, int]
    outcomes: dict[str, str]  # "case::rule" -> outcome
    messages: dict[str, str]  # "case::rule" -> message, for non-pass verdicts
    toolwire: str = ""
    rules_version: str = ""
    corpus_version: str = ""
    broken: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def version_key(version: str) -> tuple[tuple[int, str], ...]:
    """A sort key for release numbers like 1.80.0, 1.106.2, 1.77.2.post1."""
    return tuple(
        (int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"[.-]", version)
    )


def _check_version(version: str, source: str) -> str:
    if not _VERSION.match(version):
        raise HistoryError(f"{source}: {version!r} is not a release number like 1.80.0")
    return version


def parse_history(text: str, source: str = "reports/thirdparty.toml") -> dict[str, HistorySpec]:
    """The ``[history.<name>]`` tables, by name; none is an empty dict."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"{source}: not TOML: {error}") from None
    tables = document.get("history", {})
    if not isinstance(tables, dict):
        raise HistoryError(f"{source}: history must be a table of [history.<name>] tables")
    specs = {}
    for name, table in tables.items():
        where = f"{source}: history.{name}"
        if not isinstance(table, dict):
            raise HistoryError(f"{where}: expected a table with package, extra and releases")
        unknown = set(table) - {"package", "extra", "releases"}
        if unknown:
            raise HistoryError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        package = table.get("package", name)
        extra = table.get("extra", name)
        releases = table.get("releases")
        if not (isinstance(package, str) and _NAME.match(package)):
            raise HistoryError(f"{where}: package must be a distribution name")
        if not (isinstance(extra, str) and extra):
            raise HistoryError(f"{where}: extra must be the name of a pyproject extra")
        if not (isinstance(releases, list) and releases):
            raise HistoryError(
                f"{where}: releases must be a list of release numbers",
                hint='releases = ["1.80.0", "1.85.0"]',
            )
        checked = _releases([str(item) for item in releases], where)
        specs[name] = HistorySpec(name, package, extra, checked)
    return specs


def _releases(items: Sequence[str], where: str) -> tuple[str, ...]:
    versions = [_check_version(item.strip(), where) for item in items]
    if len(set(versions)) != len(versions):
        raise HistoryError(f"{where}: a release is listed twice")
    return tuple(sorted(versions, key=version_key))


def parse_releases(option: str, specs: Mapping[str, HistorySpec]) -> HistorySpec:
    """``NAME`` (the table's releases) or ``NAME=1.80.0,1.85.0`` (these instead)."""
    name, _, listed = option.partition("=")
    name = name.strip()
    spec = specs.get(name)
    if spec is None:
        known = ", ".join(sorted(specs)) or "none"
        raise HistoryError(
            f"--history {option}: no [history.{name}] table in reports/thirdparty.toml "
            f"(known: {known})"
        )
    if not listed:
        return spec
    items = [item for item in listed.split(",") if item.strip()]
    if not items:
        raise HistoryError(f"--history {option}: no release after '='")
    return HistorySpec(spec.name, spec.package, spec.extra, _releases(items, "--history"))


def parse_fixes(text: str, source: str) -> tuple[Fix, ...]:
    """The ``[[fix]]`` entries of a fixes file, oldest release first."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"{source}: not TOML: {error}") from None
    entries = document.get("fix", [])
    if not isinstance(entries, list):
        raise HistoryError(f"{source}: expected [[fix]] entries")
    fixes = []
    for number, entry in enumerate(entries, 1):
        where = f"{source}: fix #{number}"
        if not isinstance(entry, dict):
            raise HistoryError(f"{where}: expected a table")
        unknown = set(entry) - {"release", "title", "url", "rules", "cases", "adapters"}
        if unknown:
            raise HistoryError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        for key in ("release", "title", "url"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise HistoryError(f"{where}: {key} must be a non-empty string")
        if not entry["url"].startswith("https://"):
            raise HistoryError(f"{where}: url must be an https:// address")
        lists = {key: entry.get(key, []) for key in ("rules", "cases", "adapters")}
        for key, value in lists.items():
            if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
                raise HistoryError(f"{where}: {key} must be a list of strings")
        if not lists["rules"]:
            raise HistoryError(f"{where}: rules must name at least one rule (or pattern)")
        fixes.append(
            Fix(
                release=_check_version(entry["release"], where),
                title=entry["title"],
                url=entry["url"],
                rules=tuple(lists["rules"]),
                cases=tuple(lists["cases"]),
                adapters=tuple(lists["adapters"]),
            )
        )
    return tuple(sorted(fixes, key=lambda fix: version_key(fix.release)))


def summarise_run(document: Mapping[str, Any]) -> RunSummary:
    """The history's record of one results document."""
    outcomes: dict[str, str] = {}
    messages: dict[str, str] = {}
    for verdict in document.get("verdicts", ()):
        key = f"{verdict['case']}::{verdict['rule']}"
        outcomes[key] = str(verdict["outcome"])
        if verdict["outcome"] != "pass":
            messages[key] = str(verdict.get("message", ""))
    corpus = document.get("corpus") or {}
    adapter = document.get("adapter") or {}
    return RunSummary(
        adapter=str(adapter.get("name", "")),
        version=str(adapter.get("version", "")),
        totals={key: int(value) for key, value in (document.get("totals") or {}).items()},
        outcomes=dict(sorted(outcomes.items())),
        messages=dict(sorted(messages.items())),
        toolwire=str(document.get("toolwire", "")),
        rules_version=str(document.get("rules_version", "")),
        corpus_version=str(corpus.get("version") or ""),
        broken=str(document.get("broken") or ""),
    )


def summary_to_json(summary: RunSummary) -> dict[str, Any]:
    """``summary.json``: outcomes grouped as outcome -> rule -> cases (compact)."""
    grouped: dict[str, dict[str, list[str]]] = {}
    for key, outcome in summary.outcomes.items():
        case, _, rule = key.partition("::")
        grouped.setdefault(outcome, {}).setdefault(rule, []).append(case)
    return {
        "adapter": summary.adapter,
        "version": summary.version,
        "toolwire": summary.toolwire,
        "rules_version": summary.rules_version,
        "corpus_version": summary.corpus_version,
        "broken": summary.broken,
        "totals": summary.totals,
        "outcomes": {o: dict(sorted(rules.items())) for o, rules in sorted(grouped.items())},
        "messages": summary.messages,
    }


def summary_from_json(data: Mapping[str, Any]) -> RunSummary:
    """A ``summary.json`` read back (``KeyError``/``TypeError`` when malformed)."""
    outcomes = {
        f"{case}::{rule}": outcome
        for outcome, rules in data["outcomes"].items()
        for rule, cases in rules.items()
        for case in cases
    }
    return RunSummary(
        adapter=str(data["adapter"]),
        version=str(data["version"]),
        totals={key: int(value) for key, value in data["totals"].items()},
        outcomes=dict(sorted(outcomes.items())),
        messages={str(key): str(value) for key, value in data["messages"].items()},
        toolwire=str(data.get("toolwire", "")),
        rules_version=str(data.get("rules_version", "")),
        corpus_version=str(data.get("corpus_version", "")),
        broken=str(data.get("broken", "")),
    )


def findings(summary: RunSummary) -> dict[str, str]:
    """``case::rule`` -> outcome for the verdicts that are findings."""
    return {key: out for key, out in summary.outcomes.items() if out in FINDING_OUTCOMES}


def _change(key: str, old: RunSummary, new: RunSummary) -> Change:
    case, _, rule = key.partition("::")
    message = new.messages.get(key) or old.messages.get(key) or ""
    return Change(case, rule, _outcome(old, case, key), _outcome(new, case, key), message)


# The outcome shown for a verdict a run does not have because its case raised.
CASE_RAISED = "convert error"


# Shown for an absent ``convert`` verdict: the adapter converted the case.
CONVERTED = "converted"
# Shown for an absent verdict on a case with directions the adapter declines.
PARTLY_UNSUPPORTED = "no verdict (directions unsupported)"


def _outcome(run: RunSummary, case: str, key: str) -> str | None:
    """The verdict's outcome, or what its absence means: ``CASE_RAISED`` when
    the conversion raised on the case, ``CONVERTED`` for an absent convert
    error, ``PARTLY_UNSUPPORTED`` when the adapter declined directions of it."""
    if key in run.outcomes:
        return run.outcomes[key]
    if run.outcomes.get(f"{case}::convert") == "error":
        return CASE_RAISED
    if key.endswith("::convert"):
        return CONVERTED
    return PARTLY_UNSUPPORTED if f"{case}::unsupported" in run.outcomes else None


def step(adapter: str, old_version: str, new_version: str, old: RunSummary, new: RunSummary,
         fixes: Sequence[Fix]) -> Step:  # fmt: skip
    """The findings ``new`` adds to and removes from ``old``, with the fixes
    released after ``old_version`` up to ``new_version`` that match them."""
    before, after = findings(old), findings(new)
    # A finding whose outcome changed (fail -> warn) appears and disappears.
    appeared = sorted(k for k in after if before.get(k) != after[k])
    disappeared = sorted(k for k in before if after.get(k) != before[k])
    every = [_change(k, old, new) for k in appeared], [_change(k, old, new) for k in disappeared]
    masked = tuple(c for side in every for c in side if CASE_RAISED in (c.old, c.new))
    added, removed = (tuple(c for c in side if c not in masked) for side in every)
    changes = added + removed
    window = [fix for fix in fixes if _released_in(fix.release, old_version, new_version)]
    matched = [fix for fix in window if any(matches(fix, adapter, c) for c in changes)]
    unexplained = [c for c in changes if not any(matches(fix, adapter, c) for fix in window)]
    return Step(
        adapter=adapter,
        old=old_version,
        new=new_version,
        appeared=added,
        disappeared=removed,
        fixes=tuple(matched),
        unexplained=tuple(unexplained),
        masked=masked,
    )


def _released_in(release: str, old: str, new: str) -> bool:
    return version_key(old) < version_key(release) <= version_key(new)


def matches(fix: Fix, adapter: str, change: Change) -> bool:
    """Whether ``fix`` may explain ``change`` (its rule, case and adapter patterns)."""
    if fix.adapters and adapter not in fix.adapters:
        return False
    if not any(fnmatch.fnmatchcase(change.rule, pattern) for pattern in fix.rules):
        return False
    return not fix.cases or any(fnmatch.fnmatchcase(change.case, p) for p in fix.cases)


def diff_releases(
    runs: Mapping[str, Mapping[str, RunSummary | str]], fixes: Sequence[Fix]
) -> list[Step]:
    """Steps between consecutive releases for every adapter.

    ``runs`` maps release -> adapter -> its summary, or a one-line problem
    when that run gave no results (the step then says so instead of a diff)."""
    releases = sorted(runs, key=version_key)
    adapters = sorted({adapter for release in releases for adapter in runs[release]})
    steps = []
    for adapter in adapters:
        for old_version, new_version in pairwise(releases):
            old = runs[old_version].get(adapter, "not run")
            new = runs[new_version].get(adapter, "not run")
            if isinstance(old, RunSummary) and isinstance(new, RunSummary):
                steps.append(step(adapter, old_version, new_version, old, new, fixes))
            else:
                problem = "; ".join(
                    f"{version}: {side}"
                    for version, side in ((old_version, old), (new_version, new))
                    if isinstance(side, str)
                )
                steps.append(Step(adapter, old_version, new_version, (), (), (), (), problem))
    return steps


def fixes_without_change(steps: Iterable[Step], fixes: Sequence[Fix]) -> list[Fix]:
    """Fixes that fall inside the judged range but match no verdict change:
    either the corpus does not exercise them or toolwire misses their bug."""
    used = {id(fix) for s in steps for fix in s.fixes}
    releases = sorted({s.old for s in steps} | {s.new for s in steps}, key=version_key)
    if not releases:
        return []
    first, last = releases[0], releases[-1]
    return [f for f in fixes if id(f) not in used and _released_in(f.release, first, last)]
