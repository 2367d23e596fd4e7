"""`toolwire corpus validate`: every problem of a corpus, not just the first.

Checks each file (YAML, both layers of the format, secrets), then the corpus
as a whole (unique ids, twins, negative cases, rule codes, XML issue codes),
parses every payload with its dialect codec, and finally lints every case
that parsed (``toolwire.harness.corpus.lint_gate``): a good case breaks no MUST rule,
a negative case exactly the rules it declares.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.harness.corpus.case import Case, Interaction
from toolwire.harness.corpus.lint_gate import lint_case_text, summary
from toolwire.harness.corpus.loader import (
    bare_message,
    case_files,
    case_from_data,
    display_path,
    duplicate_id_error,
    read_case_file,
    read_yaml,
)
from toolwire.harness.corpus.secrets import scan_cassette
from toolwire.harness.corpus.vocabulary import (
    NEGATIVE_FEATURE,
    PREFERRED_SUFFIX,
    RULE_CODE_PATTERN,
    XML_ISSUE_CODES,
    closest,
    unknown_value_hint,
)
from toolwire.harness.dialects import DialectCodec, get_codec
from toolwire.harness.errors import CorpusError, ToolwireError
from toolwire.harness.model import QWEN_XML

_RULE_CODE = re.compile(RULE_CODE_PATTERN)
# A negative case expecting a schema violation may hold payloads its codec refuses.
_SCHEMA_FAMILY = "schema."


@dataclass(frozen=True)
class Problem:
    """One thing wrong, printed as ``source: message (hint)``."""

    source: str
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        text = f"{self.source}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text

    @classmethod
    def from_error(cls, error: CorpusError) -> Problem:
        return cls(error.source, bare_message(error), error.hint)


@dataclass(frozen=True)
class ValidationReport:
    root: Path
    files: int
    cases: tuple[Case, ...]
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.ok:
            return f"{_plural(len(self.cases), 'case')} valid"
        problems = _plural(len(self.problems), "problem")
        return f"{problems} in {_plural(self.files, 'case file')}"


def validate_corpus(root: Path, *, lint: bool = True) -> ValidationReport:
    """Check every case file below ``root`` and the corpus as a whole
    (``lint=False`` leaves out the rule verdicts, for a live recording kept as is)."""
    problems: list[Problem] = []
    cases: list[Case] = []
    unreadable: list[CorpusError] = []
    paths = case_files(root, unreadable)
    problems.extend(Problem.from_error(error) for error in unreadable)
    for path in paths:
        case = _check_file(path, root, problems)
        if case is not None:
            cases.append(case)
    unique = _unique_cases(cases, problems)
    by_id = {case.id: case for case in unique}
    for case in unique:
        problems.extend(_check_case(case, by_id))
    payload_problems = list(_check_payloads(unique))
    problems.extend(payload_problems)
    unparsed = {problem.source for problem in payload_problems}
    linted = [case for case in unique if display_path(case.source) not in unparsed]
    if lint:
        problems.extend(_check_lint(linted))
    return ValidationReport(root, len(paths), tuple(unique), tuple(problems))


def _check_lint(cases: list[Case]) -> Iterator[Problem]:
    for case in cases:
        source = display_path(case.source)
        try:
            text = case.source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # reported when the file was read
        outcome = lint_case_text(text, source)
        declared = set(case.expect.violations)
        if outcome.unreadable is not None or not all(map(_RULE_CODE.match, declared)):
            continue  # a payload lint cannot read, or a bad code: reported above
        if not case.has_feature(NEGATIVE_FEATURE):
            if outcome.must:
                yield Problem(
                    source,
                    f"the recording breaks {_plural(len(outcome.must), 'MUST rule')}: "
                    f"{summary([line for line in outcome.lines if line.startswith('MUST')])}",
                    "fix the recording, or keep it as a negative case: add `negative` to "
                    "features and list the codes in expect.violations",
                )
        elif set(outcome.codes) != declared:
            missing = sorted(declared - set(outcome.codes))
            extra = sorted(set(outcome.codes) - declared)
            parts = [f"declared but not found: {', '.join(missing)}"] if missing else []
            parts += [f"found but not declared: {', '.join(extra)}"] if extra else []
            yield Problem(
                source,
                f"toolwire lint does not find exactly expect.violations ({'; '.join(parts)})",
                "a negative case triggers exactly the codes it lists",
            )


def _check_file(path: Path, root: Path, problems: list[Problem]) -> Case | None:
    source = display_path(path)
    if path.suffix != PREFERRED_SUFFIX:
        problems.append(
            Problem(
                source,
                f"case files end in {PREFERRED_SUFFIX}",
                f"rename it: only {PREFERRED_SUFFIX} files ship in the package",
            )
        )
    try:
        text = read_case_file(path)
    except CorpusError as error:
        problems.append(Problem.from_error(error))
        return None
    data: Any = None
    try:
        data = read_yaml(text, source)
    except CorpusError as error:
        problems.append(Problem.from_error(error))
    for finding in scan_cassette(source, text, data):
        where = f"{source}:{finding.line}" if finding.line is not None else source
        problems.append(Problem(where, finding.message, finding.hint))
    if data is None:
        return None
    try:
        return case_from_data(data, path, root)
    except CorpusError as error:
        problems.append(Problem.from_error(error))
        return None


def _unique_cases(cases: list[Case], problems: list[Problem]) -> list[Case]:
    seen: dict[str, Case] = {}
    for case in cases:
        other = seen.get(case.id)
        if other is None:
            seen[case.id] = case
        else:
            problems.append(Problem.from_error(duplicate_id_error(case, other)))
    return sorted(seen.values(), key=lambda case: case.id)


def _check_case(case: Case, by_id: dict[str, Case]) -> Iterator[Problem]:
    source = display_path(case.source)
    for dialect, twin_id in case.twins.items():
        twin = by_id.get(twin_id)
        if twin is None:
            candidates = [other.id for other in by_id.values() if other.dialect == dialect]
            near = closest(twin_id, candidates, count=3)
            hint = f"did you mean: {', '.join(near)}?" if near else "add the twin case"
            yield Problem(source, f"twin {dialect}: {twin_id!r} names no case", hint)
        elif twin.dialect != dialect:
            yield Problem(
                source,
                f"twin {dialect}: {twin_id!r} has dialect {twin.dialect}",
                f"list it under twins.{twin.dialect}, or name a {dialect} case",
            )
        elif len(twin.interactions) != len(case.interactions):
            yield Problem(
                source,
                f"twin {dialect}: {twin_id!r} has {len(twin.interactions)} interactions, "
                f"this case has {len(case.interactions)}",
                "twins hold the same conversation, one interaction for each",
            )

    negative = case.has_feature(NEGATIVE_FEATURE)
    if case.expect.violations and not negative:
        yield Problem(
            source,
            "expect.violations is set but the case lacks the negative feature",
            "add `negative` to features",
        )
    if negative and not case.expect.violations:
        yield Problem(
            source,
            "the negative feature needs expect.violations",
            "list the rule codes the case must trigger, or drop `negative`",
        )
    for code in case.expect.violations:
        if not _RULE_CODE.match(code):
            yield Problem(
                source,
                f"expect.violations: {code!r} is not a rule code",
                "rule codes look like family.name, e.g. pairing.orphan_result",
            )
    for code in case.expect.xml_issues:
        if code not in XML_ISSUE_CODES:
            yield Problem(
                source,
                f"expect.xml_issues: unknown issue code {code!r}",
                unknown_value_hint(code, XML_ISSUE_CODES),
            )
    qwen = case.dialect == QWEN_XML or case.has_feature("qwen-xml")
    expects_xml = case.expect.tool_calls is not None or case.expect.text is not None
    if not qwen and (expects_xml or case.expect.xml_issues):
        yield Problem(
            source,
            "expect.tool_calls, text and xml_issues are for qwen-xml cases",
            "remove them, or make the case a qwen-xml case",
        )


def _check_payloads(cases: list[Case]) -> Iterator[Problem]:
    codecs: dict[str, DialectCodec | None] = {}
    for case in cases:
        if case.dialect not in codecs:
            try:
                codecs[case.dialect] = get_codec(case.dialect)
            except (ImportError, AttributeError) as error:
                codecs[case.dialect] = None
                yield Problem(
                    f"{case.dialect} codec",
                    f"cannot be loaded ({type(error).__name__}: {error})",
                    f"the payloads of {case.dialect} cases were not checked",
                )
        codec = codecs[case.dialect]
        if codec is None:
            continue
        refusal_expected = any(code.startswith(_SCHEMA_FAMILY) for code in case.expect.violations)
        for interaction in case.interactions:
            yield from _parse_interaction(codec, case.dialect, interaction, refusal_expected)


def _parse_interaction(
    codec: DialectCodec, dialect: str, interaction: Interaction, refusal_expected: bool
) -> Iterator[Problem]:
    """Parse each payload of one exchange; a body that is not JSON is a
    problem even in a negative case, a codec refusal only when unexpected."""
    calls: list[tuple[str, Callable[[], object]]] = []
    try:
        request = interaction.request_json()
        calls.append(("request", lambda: codec.parse_request(request)))
        if interaction.is_stream():
            events = interaction.response_events()
            calls.append(("stream", lambda: codec.parse_stream(events)))
        elif interaction.is_success():
            response = interaction.response_json()
            calls.append(("response", lambda: codec.parse_response(response)))
        elif "json" in (interaction.response_header("Content-Type") or ""):
            interaction.response_json()  # an error body that says it is JSON must be
    except CorpusError as error:
        yield Problem.from_error(error)
    where = f"interaction {interaction.index + 1}"
    for kind, call in calls:
        try:
            call()
        except ToolwireError as error:
            if not refusal_expected:
                yield Problem(
                    interaction.source,
                    f"{where}: the {kind} does not parse as {dialect}: {error.message}",
                    error.hint or "fix the payload, or expect a schema.* violation",
                )
        except Exception as error:  # a codec bug must not hide the other problems
            yield Problem(
                interaction.source,
                f"{where}: the {dialect} codec crashed on the {kind} "
                f"({type(error).__name__}: {error})",
                "this is a bug in the codec, not in the case",
            )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
