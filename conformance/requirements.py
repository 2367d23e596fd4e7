"""The requirements inventory: what each dialect's provider documentation
requires of a request, a response and a stream, each requirement a short
quoted sentence with its URL, mapped to the rules that judge it or to an
exclusion with its reason (and the issue meant to cover it); and the checks of
the Open Responses compliance suite mapped onto the rules.

The inventory lives in ``docs/requirements/manifest.json``; the pages
``docs/requirements/*.md`` are rendered from it:

    python -m toolwire.conformance.requirements docs/requirements

Pure: reading, checking against a rule table given by the caller, and
rendering. ``tests/docs/test_requirements.py`` joins it with the catalogue.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.conformance.rule import Rule

PARTS = ("request", "response", "stream")
# A quote is a short sentence (a fact), never a passage of the provider's prose.
MAX_QUOTE = 240
MANIFEST_NAME = "manifest.json"
SUITE_PAGE = "open-responses.md"
INDEX_PAGE = "README.md"
# A checked quote found in a file of the public-code index (the search tools'
# find_string), named by its id there: "code:71124184721".
CODE_INDEX = "code:"


class RequirementsError(ValueError):
    """The manifest is not of the form this module reads."""


@dataclass(frozen=True)
class Exclusion:
    reason: str
    issue: int | None


@dataclass(frozen=True)
class Requirement:
    id: str
    part: str
    url: str
    quote: str
    checked: str | None
    rules: tuple[str, ...]
    excluded: Exclusion | None
    also_at: tuple[str, ...] = ()
    note: str = ""
    # What the rules leave unjudged of a requirement they judge in part.
    gap: Exclusion | None = None

    @property
    def urls(self) -> tuple[str, ...]:
        """Where the provider states this requirement: its page, and the pages
        rules cite for the same fact."""
        return (self.url, *self.also_at)


@dataclass(frozen=True)
class DialectInventory:
    dialect: str
    title: str
    requirements: tuple[Requirement, ...]

    @property
    def judged(self) -> int:
        return sum(1 for requirement in self.requirements if requirement.rules)

    @property
    def in_part(self) -> int:
        return sum(1 for requirement in self.requirements if requirement.gap is not None)


@dataclass(frozen=True)
class SuiteCheck:
    id: str
    tests: str
    what: str
    rules: tuple[str, ...]
    not_judged: str | None
    note: str = ""


@dataclass(frozen=True)
class Manifest:
    about: str
    dialects: tuple[DialectInventory, ...]
    suite_source: str
    suite_events: str
    suite_checks: tuple[SuiteCheck, ...]

    def dialect(self, name: str) -> DialectInventory:
        for inventory in self.dialects:
            if inventory.dialect == name:
                return inventory
        raise KeyError(name)


# --- reading -----------------------------------------------------------------


def _text(data: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> str:
    value = data.get(key)
    if value is None and optional:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise RequirementsError(f"{where}: {key!r} must be a non-empty string")
    return value


def _codes(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise RequirementsError(f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def _exclusion(data: Mapping[str, Any], where: str, key: str = "excluded") -> Exclusion | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RequirementsError(f"{where}: {key!r} must be an object with a reason")
    issue = value.get("issue")
    if issue is not None and (not isinstance(issue, int) or isinstance(issue, bool)):
        raise RequirementsError(f"{where}: '{key}.issue' must be an issue number")
    return Exclusion(_text(value, "reason", where), issue)


def _requirement(data: Any, where: str) -> Requirement:
    if not isinstance(data, Mapping):
        raise RequirementsError(f"{where}: a requirement must be an object")
    checked = data.get("checked")
    if checked is not None and not isinstance(checked, str):
        raise RequirementsError(f"{where}: 'checked' must be a URL or null")
    part = _text(data, "part", where)
    if part not in PARTS:
        raise RequirementsError(f"{where}: 'part' must be one of {', '.join(PARTS)}")
    return Requirement(
        id=_text(data, "id", where),
        part=part,
        url=_text(data, "url", where),
        quote=_text(data, "quote", where),
        checked=checked,
        rules=_codes(data, "rules", where),
        excluded=_exclusion(data, where),
        also_at=_codes(data, "also_at", where),
        note=_text(data, "note", where, optional=True),
        gap=_exclusion(data, where, "gap"),
    )


def _dialect(data: Any, where: str) -> DialectInventory:
    if not isinstance(data, Mapping) or not isinstance(data.get("requirements"), list):
        raise RequirementsError(f"{where}: a dialect must be an object with a requirements list")
    name = _text(data, "dialect", where)
    requirements = tuple(
        _requirement(item, f"{name} requirement {index}")
        for index, item in enumerate(data["requirements"])
    )
    return DialectInventory(name, _text(data, "title", where), requirements)


def _check(data: Any, where: str) -> SuiteCheck:
    if not isinstance(data, Mapping):
        raise RequirementsError(f"{where}: a check must be an object")
    not_judged = data.get("not_judged")
    if not_judged is not None and not isinstance(not_judged, str):
        raise RequirementsError(f"{where}: 'not_judged' must be a reason or absent")
    return SuiteCheck(
        id=_text(data, "id", where),
        tests=_text(data, "tests", where),
        what=_text(data, "what", where),
        rules=_codes(data, "rules", where),
        not_judged=not_judged,
        note=_text(data, "note", where, optional=True),
    )


def parse(data: Any) -> Manifest:
    """The manifest from its JSON value; RequirementsError names what is wrong."""
    if not isinstance(data, Mapping) or not isinstance(data.get("dialects"), list):
        raise RequirementsError("the manifest must be an object with a 'dialects' list")
    suite = data.get("open_responses")
    if not isinstance(suite, Mapping) or not isinstance(suite.get("checks"), list):
        raise RequirementsError("the manifest needs 'open_responses' with a 'checks' list")
    return Manifest(
        about=_text(data, "about", "manifest"),
        dialects=tuple(_dialect(item, f"dialect {i}") for i, item in enumerate(data["dialects"])),
        suite_source=_text(suite, "source", "open_responses"),
        suite_events=_text(suite, "events", "open_responses"),
        suite_checks=tuple(_check(item, f"check {i}") for i, item in enumerate(suite["checks"])),
    )


def load(path: Path) -> Manifest:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise RequirementsError(f"cannot read {path}: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise RequirementsError(f"{path} is not JSON: {error.msg} (line {error.lineno})") from None
    return parse(data)


# --- checking ----------------------------------------------------------------


def entry_problems(
    manifest: Manifest, known: Mapping[str, Rule], dialects: Sequence[str]
) -> list[str]:
    """What is wrong with the entries themselves: a code that names no rule, an
    entry with neither a rule nor an exclusion (or with both), a quote too long
    to be a short sentence, a dialect toolwire does not have, a repeated id."""
    problems: list[str] = []
    for inventory in manifest.dialects:
        if inventory.dialect not in dialects:
            problems.append(f"{inventory.dialect}: not a dialect toolwire has")
        seen: set[str] = set()
        for requirement in inventory.requirements:
            where = f"{inventory.dialect}/{requirement.id}"
            if requirement.id in seen:
                problems.append(f"{where}: the id is used twice")
            seen.add(requirement.id)
            problems += [
                f"{where}: names {code}, which is no rule"
                for code in requirement.rules
                if code not in known
            ]
            if not requirement.rules and requirement.excluded is None:
                problems.append(f"{where}: neither a rule judges it nor an exclusion says why not")
            if requirement.rules and requirement.excluded is not None:
                problems.append(f"{where}: both judged and excluded; say what is left in a gap")
            if requirement.gap is not None and not requirement.rules:
                problems.append(f"{where}: a gap in what no rule judges; exclude it instead")
            checked = requirement.checked
            if checked is not None and not _is_reference(checked):
                problems.append(f"{where}: 'checked' is neither a URL nor {CODE_INDEX}ID")
            if len(requirement.quote) > MAX_QUOTE:
                problems.append(
                    f"{where}: the quote is {len(requirement.quote)} characters,"
                    " not a short sentence"
                )
    for check in manifest.suite_checks:
        where = f"open-responses/{check.id}"
        problems += [
            f"{where}: names {code}, which is no rule" for code in check.rules if code not in known
        ]
        if not check.rules and not check.not_judged:
            problems.append(f"{where}: neither rules nor a reason it is not judged")
        if check.rules and check.not_judged:
            problems.append(f"{where}: both rules and a reason it is not judged")
    return problems


def _is_reference(where: str) -> bool:
    if where.startswith(CODE_INDEX):
        return where.removeprefix(CODE_INDEX).isdigit()
    return where.startswith("https://")


def uncited_evidence(manifest: Manifest, known: Mapping[str, Rule]) -> list[str]:
    """Each documentation requirement a rule that can fail a run cites (its
    ``documented(...)`` evidence) that no inventory entry at that URL maps to
    the rule."""
    entries = [
        requirement for inventory in manifest.dialects for requirement in inventory.requirements
    ]
    missing: list[str] = []
    for code, rule in sorted(known.items()):
        if not rule.can_be_must:
            continue
        for evidence in rule.evidence:
            if evidence.kind != "requirement":
                continue
            if not any(evidence.url in entry.urls and code in entry.rules for entry in entries):
                missing.append(
                    f"{code} cites {evidence.url} ({evidence.says!r});"
                    " no inventory entry there names it"
                )
    return missing


def coverage(manifest: Manifest) -> list[tuple[str, int, int, int]]:
    """(dialect, requirements judged by a rule, of those judged only in part,
    requirements listed)."""
    return [
        (inventory.dialect, inventory.judged, inventory.in_part, len(inventory.requirements))
        for inventory in manifest.dialects
    ]


# --- rendering ---------------------------------------------------------------

_GENERATED = (
    "<!-- Generated from manifest.json by"
    " python -m toolwire.conformance.requirements; do not edit. -->"
)


def _rule_link(code: str) -> str:
    family = code.split(".", 1)[0]
    return f"[`{code}`](../rules/{family}.md#{code.replace('.', '').lower()})"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _quote(text: str) -> str:
    return "“" + _cell(text) + "”"


def _checked(where: str | None) -> str:
    if where is None:
        return "—"
    if where.startswith(CODE_INDEX):
        return f"code index `{where.removeprefix(CODE_INDEX)}`"
    return f"[copy]({where})"


def _reason(exclusion: Exclusion) -> str:
    issue = f" (issue {exclusion.issue})" if exclusion.issue else ""
    return f"{_cell(exclusion.reason)}{issue}"


def _verdict(requirement: Requirement) -> str:
    if requirement.rules:
        rules = ", ".join(_rule_link(code) for code in requirement.rules)
        if requirement.gap is not None:
            rules += f"<br>in part: {_reason(requirement.gap)}"
        return rules
    assert requirement.excluded is not None
    return f"not judged: {_reason(requirement.excluded)}"


def coverage_table(manifest: Manifest) -> str:
    lines = [
        "| dialect | requirements judged / listed | of those judged, in part |",
        "|---|---|---|",
    ]
    judged = partial = listed = 0
    for dialect, done, part, total in coverage(manifest):
        lines.append(f"| [{dialect}]({dialect}.md) | {done} / {total} | {part} |")
        judged, partial, listed = judged + done, partial + part, listed + total
    lines.append(f"| all | {judged} / {listed} | {partial} |")
    return "\n".join(lines)


def render_dialect(inventory: DialectInventory) -> str:
    lines = [
        _GENERATED,
        "",
        f"# Requirements inventory: {inventory.dialect}",
        "",
        f"What the {inventory.title} documentation requires of a request, a response and a stream,",
        "each requirement quoted from its page, and the toolwire rules that judge it",
        "or why none does yet. Checked: the stored copy where the quoted sentence was",
        "found, or the id of a file of the public-code index that holds it verbatim",
        "(— where none was found yet). The source of truth is",
        f"[manifest.json]({MANIFEST_NAME}); the index is [README.md]({INDEX_PAGE}).",
        "",
        f"Judged: {inventory.judged} of {len(inventory.requirements)} requirements"
        f" ({inventory.in_part} of them in part).",
    ]
    for part in PARTS:
        entries = [
            requirement for requirement in inventory.requirements if requirement.part == part
        ]
        if not entries:
            continue
        lines += [
            "",
            f"## {part.capitalize()}",
            "",
            "| id | requirement | judged by | checked |",
            "|---|---|---|---|",
        ]
        for requirement in entries:
            said = f"{_quote(requirement.quote)} ([source]({requirement.url}))"
            if requirement.note:
                said += f"<br>{_cell(requirement.note)}"
            checked = _checked(requirement.checked)
            lines.append(f"| `{requirement.id}` | {said} | {_verdict(requirement)} | {checked} |")
    return "\n".join(lines) + "\n"


def render_suite(manifest: Manifest) -> str:
    judged = sum(1 for check in manifest.suite_checks if check.rules)
    lines = [
        _GENERATED,
        "",
        "# The Open Responses compliance suite, mapped onto toolwire rules",
        "",
        f"Each check of the suite's [compliance tests]({manifest.suite_source}) and of its",
        f"[streaming event validation]({manifest.suite_events}), with the toolwire rules that",
        "judge the same thing, or why toolwire does not judge it. The suite sends live",
        "requests to a gateway; toolwire judges what a converter or proxy makes of recorded",
        "traffic, so most of its checks are judged against the source the converter was given.",
        "",
        f"Judged: {judged} of {len(manifest.suite_checks)} checks.",
        "",
        "| check | suite tests | what it checks | toolwire |",
        "|---|---|---|---|",
    ]
    for check in manifest.suite_checks:
        if check.rules:
            verdict = ", ".join(_rule_link(code) for code in check.rules)
            if check.note:
                verdict += f"<br>{_cell(check.note)}"
        else:
            verdict = f"not judged: {_cell(check.not_judged or '')}"
        lines.append(f"| `{check.id}` | {_cell(check.tests)} | {_cell(check.what)} | {verdict} |")
    return "\n".join(lines) + "\n"


def render_index(manifest: Manifest) -> str:
    lines = [
        _GENERATED,
        "",
        "# Requirements inventory",
        "",
        "What each dialect's provider documentation requires of a request, a response and",
        "a stream, each requirement quoted with its URL and mapped to the rules that judge",
        "it, or to an exclusion with its reason and the issue meant to cover it. The",
        f"source of truth is [manifest.json]({MANIFEST_NAME}); `tests/docs/test_requirements.py`",
        "fails when a rule cites a documented requirement the inventory does not list,",
        "when an entry has neither a rule nor an exclusion, when an entry names a rule",
        "that does not exist, and when these pages are out of date.",
        "",
        coverage_table(manifest),
        "",
        "The Open Responses compliance suite's checks, mapped onto the rules:"
        f" [{SUITE_PAGE}]({SUITE_PAGE}).",
    ]
    return "\n".join(lines) + "\n"


def pages(manifest: Manifest) -> dict[str, str]:
    """Every page, by file name."""
    rendered = {
        f"{inventory.dialect}.md": render_dialect(inventory) for inventory in manifest.dialects
    }
    rendered[SUITE_PAGE] = render_suite(manifest)
    rendered[INDEX_PAGE] = render_index(manifest)
    return rendered


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print(
            "usage: python -m toolwire.conformance.requirements DOCS_REQUIREMENTS_DIR",
            file=sys.stderr,
        )
        return 2
    folder = Path(argv[0])
    try:
        manifest = load(folder / MANIFEST_NAME)
    except RequirementsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for name, text in pages(manifest).items():
        (folder / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
