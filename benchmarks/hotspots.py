"""Where the harness spends its time: CPU per check, per engine step, per adapter call.

`python benchmarks/hotspots.py [--corpus PATH]` runs the reference adapter
over the corpus in one process with a timer around every rule check (by code
and scope), the adapter's calls, the parsing of sources and outputs, the
copies that isolate the adapter and the loading of the corpus, then prints
the biggest costs. Timers read each thread's own CPU clock, so they hold on
a busy machine; a profiler in the main thread cannot see inside the thread
each case is judged on (toolwire.harness.engine.case_thread), these timers can.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from toolwire.conformance import registry
from toolwire.harness import wire_values
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus import loader
from toolwire.harness.corpus.loader import bundled_corpus_root
from toolwire.harness.engine import collect, judging, options, runner, session
from toolwire.harness.results import document as results

SECONDS: dict[str, float] = defaultdict(float)
CALLS: Counter[str] = Counter()


def _timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            SECONDS[name] += time.thread_time() - start
            CALLS[name] += 1

    return wrapper


def _wrap_checks(checks: MutableMapping[str, Any], scope: str) -> None:
    for code, check in list(checks.items()):
        checks[code] = _timed(f"check {code} ({scope})", check)


# (module or class, attribute, label): engine steps timed where they are
# looked up. A step the engine no longer has is skipped, so the script
# outlives refactors.
_STEPS: tuple[tuple[Any, str, str], ...] = (
    (judging, "parse_payload", "engine: parse adapter output"),
    (runner, "case_payloads", "engine: parse case payloads"),
    (wire_values.InputCopies, "copy", "engine: copy adapter input"),
    (wire_values.InputCopies, "copy_output", "engine: check and copy adapter output"),
    (collect, "finding_diff", "engine: explanation diffs"),
    (loader, "load_case", "load: read and check case files"),
)


def instrument(adapter: Any) -> list[str]:
    """Put timers in place; return the steps that were not found."""
    _wrap_checks(registry.PAYLOAD_CHECKS, "payload")
    _wrap_checks(registry.CONVERSION_CHECKS, "conversion")
    _wrap_checks(registry.ROUNDTRIP_CHECKS, "roundtrip")
    missing = []
    for module, attribute, label in _STEPS:
        if hasattr(module, attribute):
            setattr(module, attribute, _timed(label, getattr(module, attribute)))
        else:
            missing.append(f"{module.__name__}.{attribute}")
    implementation = adapter.implementation
    implementation.convert = _timed("adapter: convert", implementation.convert)
    implementation.id_mapping = _timed("adapter: id_mapping", implementation.id_mapping)
    return missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--top", type=int, default=25)
    arguments = parser.parse_args()
    root = arguments.corpus or bundled_corpus_root()
    adapter = load_adapter("reference")
    missing = instrument(adapter)
    start = time.process_time()
    corpus = loader.load_corpus(root)
    result = session.run_corpus(corpus, adapter, options.RunOptions(corpus=corpus))
    results.results_document(result)
    total = time.process_time() - start
    print(f"hotspots: reference adapter on {len(result.cases)} cases, {total:.2f} s cpu in all")
    print(f"  {'where':58} {'cpu s':>7} {'share':>6} {'calls':>7}")
    for name, seconds in sorted(SECONDS.items(), key=lambda item: -item[1])[: arguments.top]:
        print(f"  {name:58} {seconds:7.3f} {seconds / total:6.1%} {CALLS[name]:7d}")
    checks = sum(s for name, s in SECONDS.items() if name.startswith("check "))
    print(f"  {'all rule checks':58} {checks:7.3f} {checks / total:6.1%}")
    if missing:
        print(f"  (not timed, not found: {', '.join(missing)})")


if __name__ == "__main__":
    main()
