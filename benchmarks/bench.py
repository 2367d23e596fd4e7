"""`make bench`: how fast toolwire judges the bundled corpus with the reference adapter.

Prints, and writes as JSON (``--json``):

1. end to end: `toolwire run` and `pytest --toolwire-adapter` in fresh
   interpreters, with the interpreter's start-up (`toolwire --version`) apart;
2. in one process: the floor (load the cases, call the adapter, no checks),
   the harness (`toolwire run`'s work) and the pytest path, their ratios to the
   floor and the harness's overhead per case;
3. growth: `toolwire run --corpus` on 1x, 10x and 100x the corpus (copies
   under new ids in a temporary folder), time per case at each size.

Targets (issue 6): end to end under 2 s; harness within 2x the floor; linear
growth. docs/performance.md records the figures and this command.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import (
    Timing,
    end_to_end,
    floor,
    harness,
    pytest_path,
    repeat_alternating,
    repeat_end_to_end_alternating,
)
from scale import scaled_corpus

from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus

TARGET_END_TO_END = 2.0
TARGET_RATIO = 2.0
BIN = Path(sys.executable).parent


def _row(label: str, timing: Timing, note: str = "") -> str:
    return f"  {label:44} wall {timing.wall:8.3f} s   cpu {timing.cpu:8.3f} s   {note}"


def _figure(timing: Timing) -> dict[str, float]:
    return {"wall_s": round(timing.wall, 4), "cpu_s": round(timing.cpu, 4)}


def bench(repeats: int, scales: list[int], snapshot: Path) -> dict[str, Any]:
    # Every measurement reads one snapshot of the bundled corpus, so a case
    # added while the benchmark runs cannot skew one figure against another.
    shutil.copytree(bundled_corpus_root(), snapshot, ignore=shutil.ignore_patterns("*.py*"))
    root = snapshot
    cases = len(list(load_corpus(root)))
    adapter = load_adapter("reference")
    figures: dict[str, Any] = {
        "cases": cases,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cpus",
        "load_average": os.getloadavg(),
    }
    print(f"toolwire bench: reference adapter, bundled corpus ({cases} cases), {repeats} repeats")
    print(f"  load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")

    jobs = max(2, os.cpu_count() or 1)
    print("\n1. end to end (fresh interpreter; best of the repeats, taken in turn)")
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-") as folder:
        toolwire_run = [
            str(BIN / "toolwire"),
            "run",
            "--adapter",
            "reference",
            "--corpus",
            str(root),
        ]
        startup, run, run_jobs, plugin = repeat_end_to_end_alternating(
            [
                ([str(BIN / "toolwire"), "--version"], None),
                ([*toolwire_run, "--report-dir", folder], None),
                ([*toolwire_run, "--jobs", str(jobs), "--report-dir", folder], None),
                (
                    [
                        str(BIN / "pytest"),
                        "-q",
                        "-p",
                        "no:cacheprovider",
                        "--toolwire-adapter",
                        "reference",
                    ],
                    Path(folder),
                ),
            ],
            repeats,
        )
    print(_row("toolwire --version (start-up)", startup))
    for label, timing in (("toolwire run", run), (f"toolwire run --jobs {jobs}", run_jobs)):
        verdict = "meets" if timing.wall < TARGET_END_TO_END else "MISSES"
        print(_row(label, timing, f"{verdict} the {TARGET_END_TO_END} s target"))
    print(_row("pytest --toolwire-adapter reference", plugin))
    figures["end_to_end"] = {
        "startup": _figure(startup),
        "toolwire_run": _figure(run),
        f"toolwire_run_jobs_{jobs}": _figure(run_jobs),
        "pytest": _figure(plugin),
    }

    print("\n2. in one process (best of the repeats, taken in turn)")
    floor_time, convert_only, harness_time, pytest_time = repeat_alternating(
        [
            lambda: floor(root, adapter),
            lambda: floor(root, adapter, id_mapping=False),
            lambda: harness(root, adapter),
            lambda: pytest_path(root, "reference"),
        ],
        repeats,
    )
    rows = {
        "floor": floor_time,
        "floor without id_mapping": convert_only,
        "harness": harness_time,
        "pytest": pytest_time,
    }
    for name, timing in rows.items():
        ratio = timing.cpu / floor_time.cpu
        overhead = (timing.cpu - floor_time.cpu) / cases * 1000
        note = "" if name.startswith("floor") else f"{ratio:5.2f}x floor, +{overhead:.2f} ms/case"
        print(_row(name, timing, note))
    figures["in_process"] = {
        name: {
            **_figure(timing),
            "ratio_to_floor_cpu": round(timing.cpu / floor_time.cpu, 3),
            "ratio_to_floor_wall": round(timing.wall / floor_time.wall, 3),
            "overhead_ms_per_case_cpu": round((timing.cpu - floor_time.cpu) / cases * 1000, 3),
        }
        for name, timing in rows.items()
    }
    verdict = "meets" if harness_time.cpu / floor_time.cpu <= TARGET_RATIO else "MISSES"
    print(f"  harness/floor {verdict} the {TARGET_RATIO}x target")
    print(f"  harness/floor without id_mapping: {harness_time.cpu / convert_only.cpu:.2f}x")

    print("\n3. growth: toolwire run --corpus on copies (one run each)")
    growth = []
    for factor in sorted(scales):
        with tempfile.TemporaryDirectory(prefix=f"toolwire-bench-{factor}x-") as folder:
            size = scaled_corpus(root, Path(folder), factor)
            timing = end_to_end(
                [str(BIN / "toolwire"), "run", "--adapter", "reference", "--corpus", folder]
            )
        per_case = timing.cpu / size * 1000
        # The largest child so far: the growth runs go from small to large.
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        note = f"{per_case:.2f} ms/case cpu, peak {peak:.0f} MB"
        print(_row(f"{factor:>3}x ({size} cases)", timing, note))
        growth.append({"factor": factor, "cases": size, **_figure(timing), "peak_rss_mb": peak})
    figures["growth"] = growth
    if len(growth) > 1:
        first, last = growth[0], growth[-1]
        slope = (last["cpu_s"] / last["cases"]) / (first["cpu_s"] / first["cases"])
        print(f"  cpu per case at {last['factor']}x / at {first['factor']}x: {slope:.2f}")
        figures["growth_per_case_ratio"] = round(slope, 3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="repeats per measurement (best)")
    parser.add_argument(
        "--scales", default="1,10,100", help="corpus multiples for growth (comma-separated)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    arguments = parser.parse_args()
    scales = [int(item) for item in arguments.scales.split(",") if item.strip()]
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-corpus-") as folder:
        figures = bench(arguments.repeats, scales, Path(folder) / "corpus")
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"\nfigures: {arguments.json}")


if __name__ == "__main__":
    main()
