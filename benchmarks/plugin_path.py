"""`make bench` (second part): the pytest plugin against `toolwire run`.

Prints, for the reference adapter on a snapshot of the bundled corpus, each
command in a fresh interpreter (best of the repeats, taken in turn):

1. CPU of `pytest --toolwire-adapter reference` against `toolwire run` on
   the same corpus, both writing results.json. Target (issue 17): at most
   1.3x. pytest is measured twice: with toolwire's plugin alone
   (PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 -p toolwire.harness.pytest_plugin), which is the
   plugin's own cost, and with every plugin this environment installs
   (hypothesis, syrupy, xdist...), which is what this checkout's developers
   pay: other plugins' start-up is theirs, not toolwire's.
2. Wall time of `pytest -n 2` against `pytest -n 0` (pytest-xdist, plugin
   alone plus xdist), and the CPU of all their processes. Target: `-n 2`
   at least 1.6x faster. On a machine whose cores are busy with other work
   no command gets two cores, so the load average is printed beside the
   figures,
3. the critical path of `-n 2` in CPU seconds, from each process's own
   clock (benchmarks/xdist_probe.py): the controller until the workers run,
   the slower worker (start-up and collection, then its items), the
   controller after the last worker ended. Against the CPU of `-n 0` it
   says what two idle cores would give, whatever the load now (process
   start and messages between processes aside). Beside it, the wall time of
   the same runs split at the first item's start and the last item's end:
   how much of each command is its items, how much starting and ending
   processes, and
4. this machine's own bound: the `-n 0` command alone, then two copies
   started together (benchmarks/parallel_ceiling.py). Two cores that slow
   each other down bound every two-process speedup below 2x.

Timings are printed, never asserted (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import Timing, end_to_end, repeat_end_to_end_alternating
from parallel_ceiling import measure as measure_ceiling
from parallel_ceiling import report as report_ceiling

from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus

TARGET_CPU_RATIO = 1.3
TARGET_XDIST_SPEEDUP = 1.6
BIN = Path(sys.executable).parent
HERE = Path(__file__).resolve().parent
ALONE = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def _row(label: str, timing: Timing, note: str = "") -> str:
    return f"  {label:46} wall {timing.wall:7.3f} s   cpu {timing.cpu:7.3f} s   {note}"


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


@dataclass(frozen=True)
class ProbeRun:
    marks: dict[str, dict[str, float]]  # each process's marks, by name ("main", "gw0"...)
    started: float  # the wall clock when the command was started
    wall: float  # seconds, until the command ended

    def phases(self) -> dict[str, float]:
        """Wall seconds before the first item started, from then until the last
        item ended (in any process), and after that until the command ended."""
        firsts = [m["wall_first_item"] for m in self.marks.values() if "wall_first_item" in m]
        lasts = [m["wall_last_item"] for m in self.marks.values() if "wall_last_item" in m]
        before = min(firsts) - self.started
        items = max(lasts) - min(firsts)
        return {"before": before, "items": items, "after": self.wall - before - items}


def _probe_runs(command: list[str], work: Path, tag: str, repeats: int) -> list[ProbeRun]:
    """Each process's marks, for each of ``repeats`` runs of ``command``."""
    runs = []
    for run in range(repeats):
        folder = work / f"probe-{tag}-{run}"
        folder.mkdir()
        path = os.pathsep.join(filter(None, (str(HERE), os.environ.get("PYTHONPATH"))))
        env = {**ALONE, "TOOLWIRE_PROBE_DIR": str(folder), "PYTHONPATH": path}
        started = time.time()
        timing = end_to_end([*command, "-p", "xdist_probe"], work / "empty", env)
        marks = {p.stem.split("-")[0]: json.loads(p.read_text("utf-8")) for p in folder.iterdir()}
        runs.append(ProbeRun(marks, started, timing.wall))
    return runs


def critical_path(marks: dict[str, dict[str, float]]) -> dict[str, float]:
    """CPU seconds along the longest chain of one `-n N` session."""
    controller = marks["main"]
    workers = [m for name, m in marks.items() if name.startswith("gw")]
    slowest = max(workers, key=lambda m: m["end"])
    start = controller["sessionstart"]
    tail = controller["end"] - controller.get("last_nodedown", controller["end"])
    return {
        "controller_start": start,
        "worker_collection": slowest["collected"],
        "worker_items": slowest["end"] - slowest["collected"],
        "controller_during_run": controller["end"] - tail - start,
        "controller_tail": tail,
        "workers_cpu": sum(m["end"] for m in workers),
        "critical_path": start + slowest["end"] + tail,
    }


def xdist_critical_path(
    serial: list[str], parallel: list[str], work: Path, repeats: int
) -> dict[str, Any]:
    serial_runs = _probe_runs(serial, work, "n0", repeats)
    parallel_runs = _probe_runs(parallel, work, "n2", repeats)
    serial_cpu = min(r.marks["main"]["end"] for r in serial_runs)
    paths = [critical_path(r.marks) for r in parallel_runs]
    best = min(paths, key=lambda p: p["critical_path"])
    ratio = serial_cpu / best["critical_path"]
    verdict = "meets" if ratio >= TARGET_XDIST_SPEEDUP else "MISSES"
    print(f"\n3. CPU along the critical path of -n 2 (best of {repeats}; each process's own clock)")
    print(f"  -n 0, its one process:                        {serial_cpu:6.3f} s")
    print(f"  -n 2, controller until the workers run:       {best['controller_start']:6.3f} s")
    print(f"        slower worker, start-up and collection: {best['worker_collection']:6.3f} s")
    print(f"        slower worker, its items:               {best['worker_items']:6.3f} s")
    print(f"        controller after the last worker ended: {best['controller_tail']:6.3f} s")
    print(f"        critical path:                          {best['critical_path']:6.3f} s")
    print(
        f"        (beside it: the controller during the run {best['controller_during_run']:.3f} s,"
    )
    print(f"        both workers {best['workers_cpu']:.3f} s)")
    target = f"{verdict} >= {TARGET_XDIST_SPEEDUP}x on two idle cores"
    print(f"  -n 0 / critical path: {ratio:.2f}x ({target})")
    phases = {
        "n0": min((r.phases() for r in serial_runs), key=lambda p: sum(p.values())),
        "n2": min((r.phases() for r in parallel_runs), key=lambda p: sum(p.values())),
    }
    print("  wall of the same runs (fastest of each), split at the first item's start")
    print("  and the last item's end:        before    items    after    total")
    for label, split in phases.items():
        cells = "  ".join(f"{split[k]:6.3f} s" for k in ("before", "items", "after"))
        print(f"    -n {label[1]}                        {cells}  {sum(split.values()):6.3f} s")
    items_ratio = phases["n0"]["items"] / phases["n2"]["items"]
    total_ratio = sum(phases["n0"].values()) / sum(phases["n2"].values())
    print(f"    -n 0 / -n 2: the items {items_ratio:.2f}x, the whole command {total_ratio:.2f}x")
    return {
        "n0_cpu_s": serial_cpu,
        "n2": best,
        "speedup_critical_path": round(ratio, 3),
        "wall_phases": phases,
        "speedup_items_wall": round(items_ratio, 3),
    }


def bench(repeats: int, root: Path, work: Path) -> dict[str, Any]:
    cases = len(list(load_corpus(root)))
    empty = work / "empty"  # pytest runs in an empty folder: no test of its own
    empty.mkdir()
    pytest = [str(BIN / "pytest"), "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    plugin = ["--toolwire-adapter", "reference", "--toolwire-corpus", str(root)]
    alone = ["-p", "toolwire.harness.pytest_plugin"]
    with_xdist = [*alone, "-p", "xdist.plugin"]
    commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "toolwire run": (
            [
                str(BIN / "toolwire"),
                "run",
                "--adapter",
                "reference",
                "--corpus",
                str(root),
                "--report-dir",
                str(work / "r1"),
            ],
            None,
        ),
        "pytest, toolwire's plugin alone": (
            [*pytest, *alone, *plugin, f"--toolwire-report-dir={work / 'r2'}"],
            ALONE,
        ),
        "pytest, every installed plugin": (
            [*pytest, *plugin, f"--toolwire-report-dir={work / 'r3'}"],
            None,
        ),
        "pytest -n 0 (plugin and xdist)": ([*pytest, *with_xdist, *plugin, "-n", "0"], ALONE),
        "pytest -n 2 (plugin and xdist)": ([*pytest, *with_xdist, *plugin, "-n", "2"], ALONE),
    }
    print(f"toolwire bench, pytest plugin: reference adapter, {cases} cases, {repeats} repeats")
    print(f"  load average at start: {_load()} ({os.cpu_count()} cpus)")
    timings = dict(
        zip(
            commands,
            repeat_end_to_end_alternating(
                [(command, empty, env) for command, env in commands.values()], repeats
            ),
            strict=True,
        )
    )
    run = timings["toolwire run"]
    figures: dict[str, Any] = {"cases": cases, "load_average_start": os.getloadavg()}
    print("\n1. CPU: the pytest path against `toolwire run` (both write results.json)")
    print(_row("toolwire run", run))
    for label in ("pytest, toolwire's plugin alone", "pytest, every installed plugin"):
        ratio = timings[label].cpu / run.cpu
        verdict = "meets" if ratio <= TARGET_CPU_RATIO else "MISSES"
        print(_row(label, timings[label], f"{ratio:.2f}x run: {verdict} <= {TARGET_CPU_RATIO}x"))
        figures[label] = {"wall_s": timings[label].wall, "cpu_s": timings[label].cpu}
        figures[f"{label}: cpu / run"] = round(ratio, 3)
    print("\n2. wall: pytest-xdist, two workers against none")
    serial, parallel = (
        timings["pytest -n 0 (plugin and xdist)"],
        timings["pytest -n 2 (plugin and xdist)"],
    )
    speedup = serial.wall / parallel.wall
    verdict = "meets" if speedup >= TARGET_XDIST_SPEEDUP else "MISSES"
    print(_row("pytest -n 0", serial))
    print(_row("pytest -n 2", parallel, f"{speedup:.2f}x faster: {verdict} >= 1.6x"))
    print(f"  (CPU of all processes: -n 2 takes {parallel.cpu / serial.cpu:.2f}x the CPU of -n 0)")
    figures["toolwire run"] = {"wall_s": run.wall, "cpu_s": run.cpu}
    figures["xdist"] = {
        "n0": {"wall_s": serial.wall, "cpu_s": serial.cpu},
        "n2": {"wall_s": parallel.wall, "cpu_s": parallel.cpu},
        "speedup_wall": round(speedup, 3),
    }
    figures["critical_path"] = xdist_critical_path(
        commands["pytest -n 0 (plugin and xdist)"][0],
        commands["pytest -n 2 (plugin and xdist)"][0],
        work,
        repeats,
    )
    # The serial pytest command, alone and two at once: the machine's own bound.
    serial_command, serial_env = commands["pytest -n 0 (plugin and xdist)"]
    ceiling = measure_ceiling(serial_command, empty, serial_env or {}, repeats)
    report_ceiling(ceiling, TARGET_XDIST_SPEEDUP)
    figures["machine_ceiling"] = {
        "alone_wall_s": ceiling.alone_wall,
        "together_wall_s": ceiling.together_wall,
        "speedup_bound": round(ceiling.speedup, 3),
        "cpu_inflation": round(ceiling.cpu_inflation, 3),
    }
    print(f"  load average at the end: {_load()}")
    figures["load_average_end"] = os.getloadavg()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="repeats per command (best)")
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-plugin-") as folder:
        work = Path(folder)
        # One snapshot of the bundled corpus for every command.
        root = work / "corpus"
        shutil.copytree(bundled_corpus_root(), root, ignore=shutil.ignore_patterns("*.py*"))
        figures = bench(arguments.repeats, root, work)
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"\nfigures: {arguments.json}")


if __name__ == "__main__":
    main()
