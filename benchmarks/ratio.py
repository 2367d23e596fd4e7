"""The harness/floor ratio for any adapter, not only ``reference``.

`make bench` measures the ratio against the reference adapter, which converts
with the very codecs the harness reads with: its floor is about as cheap as
judging can be, so the ratio there is the harness's worst case. This prints
the same two figures (``measure.floor`` and ``measure.harness``, CPU, best of
``--repeats`` taken in turn) for the adapters a user actually tests.

    python benchmarks/ratio.py reference some.module:adapter
    python benchmarks/ratio.py --third-party      # `make bench-thirdparty`

``--third-party`` runs every adapter of reports/thirdparty.toml whose
environment ``.venv-thirdparty/<extra>/`` exists (`make reports` makes them),
each in a fresh interpreter of that environment; an adapter without one is
listed as not measured. Not a test, and nothing is written but the output
(and ``--json``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import floor, harness, repeat_alternating

from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus

ROOT = Path(__file__).resolve().parents[1]
# The one line of a child's stdout that carries its figures: adapters may print.
MARK = "toolwire-ratio: "


def measure_adapter(spec: str, corpus: Path, repeats: int) -> dict[str, Any]:
    """Floor and harness CPU of one adapter in this interpreter."""
    adapter = load_adapter(spec)
    counts: list[int] = []  # the harness's verdict count, from the timed runs themselves
    floor_time, harness_time = repeat_alternating(
        [lambda: floor(corpus, adapter), lambda: counts.append(harness(corpus, adapter))],
        repeats,
    )
    verdicts = counts[-1]
    return {
        "adapter": spec,
        "verdicts": verdicts,
        "floor_cpu_s": round(floor_time.cpu, 4),
        "harness_cpu_s": round(harness_time.cpu, 4),
        "ratio": round(harness_time.cpu / floor_time.cpu, 3),
        "overhead_ms_per_verdict": round(
            (harness_time.cpu - floor_time.cpu) / max(verdicts, 1) * 1000, 4
        ),
    }


def measure_in_environment(python: Path, spec: str, corpus: Path, repeats: int) -> dict[str, Any]:
    """``measure_adapter`` in another interpreter: its figures, or ``skipped``
    saying why there are none."""
    completed = subprocess.run(
        [
            str(python),
            __file__,
            "--child",
            spec,
            "--corpus",
            str(corpus),
            "--repeats",
            str(repeats),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    for line in completed.stdout.splitlines():
        if line.startswith(MARK):
            figures: dict[str, Any] = json.loads(line[len(MARK) :])
            return figures
    last = (completed.stderr.strip().splitlines() or ["no output"])[-1]
    return {"adapter": spec, "skipped": f"failed (exit {completed.returncode}): {last[:200]}"}


def third_party(corpus: Path, repeats: int) -> list[dict[str, Any]]:
    from toolwire.harness.reports.thirdparty import VENVS, load_table

    found: list[dict[str, Any]] = []
    for entry in load_table():
        python = VENVS / entry.extra / "bin" / "python"
        if not python.exists():
            why = f"not measured: no {python.parent.parent} (make reports)"
            found.append({"adapter": entry.name, "skipped": why})
            continue
        print(f"  measuring {entry.name} ...", file=sys.stderr, flush=True)
        found.append(measure_in_environment(python, entry.name, corpus, repeats))
    return found


def _row(figures: dict[str, Any]) -> str:
    if "skipped" in figures:
        return f"  {figures['adapter']:30} {figures['skipped']}"
    return (
        f"  {figures['adapter']:30} floor {figures['floor_cpu_s']:7.3f} s   "
        f"harness {figures['harness_cpu_s']:7.3f} s   {figures['ratio']:5.2f}x   "
        f"{figures['verdicts']:5} verdicts, {figures['overhead_ms_per_verdict']:+.3f} ms each"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("adapters", nargs="*", help="adapter specs, as `toolwire run --adapter`")
    parser.add_argument("--third-party", action="store_true", help="reports/thirdparty.toml too")
    parser.add_argument("--corpus", type=Path, default=None, help="default: the bundled corpus")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per figure (best)")
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # one adapter, figures on stdout
    arguments = parser.parse_args()
    corpus = arguments.corpus or bundled_corpus_root()
    if arguments.child:
        print(MARK + json.dumps(measure_adapter(arguments.child, corpus, arguments.repeats)))
        return
    if not arguments.adapters and not arguments.third_party:
        parser.error("name adapters to measure, or --third-party")
    cases = len(load_corpus(corpus))
    print(f"toolwire ratio: harness/floor CPU, {cases} cases, best of {arguments.repeats}")
    rows = [measure_adapter(spec, corpus, arguments.repeats) for spec in arguments.adapters]
    if arguments.third_party:
        rows.extend(third_party(corpus, arguments.repeats))
    for figures in rows:
        print(_row(figures))
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
        print(f"\nfigures: {arguments.json}")


if __name__ == "__main__":
    main()
