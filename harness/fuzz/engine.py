"""``fuzz``: generated conversations through an adapter, failures shrunk by Hypothesis.

For each source dialect the adapter declares (or the ones asked for), valid
exchanges are drawn (``toolwire.harness.strategies``) and run through the engine's
``run_case`` exactly like corpus cases: every direction the adapter declares
from that dialect, payload rules on the output, conversion rules against the
source, and the round trip where the reverse direction exists. A ``fail``
(MUST) or ``error`` verdict is a failure.

Each rule code raises its own exception type, so Hypothesis keeps failures
of different rules apart and shrinks each to its own minimal exchange
(``report_multiple_bugs``), rather than drifting from one rule to another
while shrinking. Runs are reproducible: a run without ``seed`` picks one and
reports it.

Hypothesis is imported here, so this module needs the ``fuzz`` extra; the
command imports it only when it runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed

from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.engine.options import DEFAULT_TIMEOUT, RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.verdicts import CONVERT, Verdict
from toolwire.harness.errors import ToolwireError
from toolwire.harness.fuzz.cases import plan_case
from toolwire.harness.strategies.draw import exchange_plans
from toolwire.harness.strategies.plan import ExchangePlan

# The pseudo code of a generated payload the harness itself could not handle.
GENERATOR = "fuzz.generator"


class FuzzUsageError(ToolwireError):
    exit_code = 2


@dataclass(frozen=True)
class FuzzOptions:
    examples: int = 100  # in total, shared among the source dialects
    seed: int | None = None
    dialects: tuple[str, ...] = ()  # empty: every source dialect the adapter declares
    timeout: float = DEFAULT_TIMEOUT
    # dialect -> profile the adapter's output is judged under (as `run --profile`)
    profiles: Mapping[str, str] = field(default_factory=dict)
    max_rounds: int = 3
    # Count SHOULD warnings as failures too (`--strict`).
    strict: bool = False
    # Shrink every distinct failing rule (True) or stop at the first one found.
    all_failures: bool = True


@dataclass(frozen=True)
class FuzzFailure:
    """A rule that failed, with the minimal exchange Hypothesis shrank it to."""

    rule_code: str
    dialect: str
    plan: ExchangePlan
    verdicts: tuple[Verdict, ...]  # every failing verdict of the minimal exchange
    detail: str = ""  # for GENERATOR: what broke

    @property
    def verdict(self) -> Verdict | None:
        return next((v for v in self.verdicts if v.rule_code == self.rule_code), None)

    @property
    def direction(self) -> str:
        verdict = self.verdict
        if verdict is None:
            return "generation"
        if verdict.findings:
            return verdict.findings[0].where
        return verdict.directions[0] if verdict.directions else "conversion"

    @property
    def message(self) -> str:
        verdict = self.verdict
        return verdict.message if verdict is not None else self.detail


@dataclass(frozen=True)
class FuzzReport:
    adapter: str
    seed: int
    dialects: tuple[str, ...]
    # What reproduces the run: the adapter spec and the profiles asked for.
    spec: str = ""
    profiles: Mapping[str, str] = field(default_factory=dict)
    strict: bool = False
    examples: dict[str, int] = field(default_factory=dict)  # dialect -> exchanges run
    failures: tuple[FuzzFailure, ...] = ()

    @property
    def exit_code(self) -> int:
        """0 no failure, 1 a rule failed (a MUST; a SHOULD too with ``strict``),
        3 the adapter or the generator broke."""
        if any(f.rule_code in (CONVERT, GENERATOR) for f in self.failures):
            return 3
        return 1 if self.failures else 0


class RuleFailed(Exception):
    """Raised inside the Hypothesis test when an exchange fails a rule."""

    def __init__(self, plan: ExchangePlan, verdicts: Sequence[Verdict], detail: str = "") -> None:
        super().__init__(detail or ", ".join(v.rule_code for v in verdicts))
        self.plan = plan
        self.verdicts = tuple(verdicts)
        self.detail = detail


_FAILURE_TYPES: dict[str, type[RuleFailed]] = {}


def _failure_type(code: str) -> type[RuleFailed]:
    """One exception type per rule code (Hypothesis tells failures apart by type)."""
    if code not in _FAILURE_TYPES:
        name = "".join(part.title() for part in code.replace(".", "_").split("_"))
        _FAILURE_TYPES[code] = type(f"{name}Failed", (RuleFailed,), {"code": code})
    return _FAILURE_TYPES[code]


def source_dialects(adapter: LoadedAdapter, wanted: Sequence[str] = ()) -> tuple[str, ...]:
    """The dialects to generate: those the adapter converts from (and ``wanted``)."""
    declared = sorted({direction.source for direction in adapter.directions})
    if not wanted:
        return tuple(declared)
    missing = [dialect for dialect in wanted if dialect not in declared]
    if missing:
        raise FuzzUsageError(
            f"adapter {adapter.name!r} declares no direction from {', '.join(missing)}",
            hint=f"it converts from: {', '.join(declared)}",
        )
    return tuple(dict.fromkeys(wanted))


def run_fuzz(
    adapter: LoadedAdapter,
    options: FuzzOptions,
    on_dialect: Callable[[str, int], None] | None = None,
) -> FuzzReport:
    """Fuzz ``adapter``; ``on_dialect(dialect, examples)`` is told before each dialect."""
    if options.examples < 1:
        raise FuzzUsageError("--examples must be at least 1")
    dialects = source_dialects(adapter, options.dialects)
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    share = math.ceil(options.examples / len(dialects))
    examples: dict[str, int] = {}
    failures: list[FuzzFailure] = []
    for dialect in dialects:
        if on_dialect is not None:
            on_dialect(dialect, share)
        count, found = _fuzz_dialect(adapter, dialect, share, seed, options)
        examples[dialect] = count
        failures.extend(found)
    return FuzzReport(
        adapter.name,
        seed,
        dialects,
        spec=adapter.spec,
        profiles=dict(options.profiles),
        strict=options.strict,
        examples=examples,
        failures=tuple(failures),
    )


def _fuzz_dialect(
    adapter: LoadedAdapter, dialect: str, examples: int, seed: int, options: FuzzOptions
) -> tuple[int, list[FuzzFailure]]:
    calls = 0
    run_options = RunOptions(timeout=options.timeout, profiles=dict(options.profiles))

    @settings(
        max_examples=examples,
        database=None,  # nothing written to the user's folder
        deadline=None,
        derandomize=False,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=options.all_failures,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )
    @given(exchange_plans(dialect, max_rounds=options.max_rounds))
    def check(plan: ExchangePlan) -> None:
        nonlocal calls
        calls += 1
        verdicts = _judge(plan, adapter, run_options)
        failing = sorted(
            (v for v in verdicts if v.is_failure or (options.strict and v.outcome == "warn")),
            key=lambda v: v.rule_code,
        )
        if failing:
            raise _failure_type(failing[0].rule_code)(plan, failing)

    try:
        hypothesis_seed(seed)(check)()
    except RuleFailed as failure:
        return calls, [_failure(failure, dialect)]
    except BaseExceptionGroup as group:
        matched, rest = group.split(RuleFailed)
        if rest is not None:
            raise rest from None
        found = [_failure(error, dialect) for error in _leaves(matched)]
        return calls, sorted(found, key=lambda f: f.rule_code)
    return calls, []


def _judge(plan: ExchangePlan, adapter: LoadedAdapter, options: RunOptions) -> list[Verdict]:
    try:
        case = plan_case(plan)
        return run_case(case, adapter, options)
    except Exception as error:  # the generator or the harness broke: report it, shrunk
        raise _failure_type(GENERATOR)(plan, (), f"{type(error).__name__}: {error}") from error


def _leaves(group: BaseExceptionGroup[Any] | None) -> list[RuleFailed]:
    if group is None:
        return []
    found: list[RuleFailed] = []
    for error in group.exceptions:
        if isinstance(error, BaseExceptionGroup):
            found.extend(_leaves(error))
        elif isinstance(error, RuleFailed):
            found.append(error)
    return found


def _failure(error: RuleFailed, dialect: str) -> FuzzFailure:
    code = getattr(type(error), "code", error.verdicts[0].rule_code if error.verdicts else "")
    return FuzzFailure(str(code), dialect, error.plan, error.verdicts, error.detail)
