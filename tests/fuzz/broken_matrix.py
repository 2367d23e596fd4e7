"""The fuzzer against every broken adapter of the self-test: is each defect found and shrunk?

``python -m tests.fuzz.broken_matrix [--examples N] [--seed S]`` fuzzes each
adapter of ``tests.selftest.broken`` from the source dialects of the
directions it damages, under the profiles it names, counting SHOULD
warnings too (``strict``), and prints one line per adapter: whether its
rule code was found, the size of the minimal exchange, the other codes,
and the CPU seconds it took. docs/fuzzing.md records a run.
"""

from __future__ import annotations

import argparse
import time

from tests.selftest.broken import BROKEN_ADAPTERS
from tests.selftest.broken_base import BrokenAdapter
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.fuzz.engine import FuzzOptions, FuzzReport, run_fuzz
from toolwire.harness.strategies.plan import AssistantPlan, ExchangePlan


def source_dialects(adapter: type[BrokenAdapter]) -> tuple[str, ...]:
    """Where the defect shows: the sources of the damaged directions, or of
    every direction into a dialect whose profile the adapter sets."""
    damaged = {source for _kind, source, _target in adapter.damaged}
    if not damaged:
        damaged = {
            source
            for _kind, source, target in adapter().directions
            if target in adapter.profiles and source != target
        }
    return tuple(sorted(damaged))


def size(plan: ExchangePlan) -> str:
    calls = [len(t.calls) for t in plan.turns if isinstance(t, AssistantPlan)]
    shape = f"{len(plan.turns)} turns, calls {calls or '-'} + {len(plan.answer.calls)}"
    return shape + (", stream" if plan.stream else "")


def fuzz_one(adapter: type[BrokenAdapter], examples: int, seed: int) -> tuple[FuzzReport, float]:
    options = FuzzOptions(
        examples=examples,
        seed=seed,
        dialects=source_dialects(adapter),
        profiles=dict(adapter.profiles),
        strict=True,
    )
    start = time.process_time()
    report = run_fuzz(check_adapter(adapter(), adapter.name), options)
    return report, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20250601)
    arguments = parser.parse_args()
    found = 0
    print(f"{'adapter':28} {'breaks':32} {'found':5}  {'minimal exchange':34} cpu s  also")
    for adapter in BROKEN_ADAPTERS:
        report, seconds = fuzz_one(adapter, arguments.examples, arguments.seed)
        by_code = {failure.rule_code: failure for failure in report.failures}
        hit = by_code.get(adapter.breaks)
        found += hit is not None
        others = ", ".join(sorted(set(by_code) - {adapter.breaks})) or "-"
        shape = size(hit.plan) if hit is not None else "-"
        mark = "yes" if hit is not None else "NO"
        print(
            f"{adapter.name:28} {adapter.breaks:32} {mark:5}  {shape:34} {seconds:5.1f}  {others}"
        )
    print(
        f"\n{found} of {len(BROKEN_ADAPTERS)} defects found with {arguments.examples} examples each"
    )


if __name__ == "__main__":
    main()
