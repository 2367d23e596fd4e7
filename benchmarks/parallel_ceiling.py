"""What two processes at once can gain on this machine, whatever pytest does.

The same command runs alone, then as two copies started together. On two
cores with nothing else to do, the pair finishes in the time of one, and
any `pytest -n 2` speedup is bounded by 2x. Cores that slow each other down
(shared caches and memory bandwidth, a virtual machine's cores that are
threads of one host core, other tenants) lower that bound for every
two-process workload: ``2 * alone / together``. Printed beside the xdist
figures so that a missed target can be told apart from a slow machine.
Timings are printed, never asserted (docs/performance.md).
"""

from __future__ import annotations

import os
import resource
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Ceiling:
    alone_wall: float  # seconds, one copy
    together_wall: float  # seconds, two copies started together, until both ended
    alone_cpu: float  # seconds, one copy
    together_cpu: float  # seconds, both copies

    @property
    def speedup(self) -> float:
        """The most two processes can gain over one on this machine now."""
        return 2 * self.alone_wall / self.together_wall

    @property
    def cpu_inflation(self) -> float:
        """CPU of each copy of the pair against the copy alone (1.0: no slowdown)."""
        return self.together_cpu / (2 * self.alone_cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(
    command: Sequence[str], copies: int, cwd: Path, env: dict[str, str]
) -> tuple[float, float]:
    """Wall time until ``copies`` copies of ``command`` all ended, and their CPU."""
    cpu, start = _children_cpu(), time.perf_counter()
    running = [
        subprocess.Popen(
            command,
            cwd=cwd,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(copies)
    ]
    for process in running:
        process.wait()
    return time.perf_counter() - start, _children_cpu() - cpu


def measure(command: Sequence[str], cwd: Path, env: dict[str, str], repeats: int) -> Ceiling:
    """The best of ``repeats`` of each, taken in turn."""
    alone: list[tuple[float, float]] = []
    together: list[tuple[float, float]] = []
    for _ in range(repeats):
        alone.append(_run(command, 1, cwd, env))
        together.append(_run(command, 2, cwd, env))
    return Ceiling(
        alone_wall=min(wall for wall, _ in alone),
        together_wall=min(wall for wall, _ in together),
        alone_cpu=min(cpu for _, cpu in alone),
        together_cpu=min(cpu for _, cpu in together),
    )


def report(ceiling: Ceiling, target: float) -> None:
    print("\n4. this machine: the same command alone, and two copies started together")
    print(f"  alone:    wall {ceiling.alone_wall:6.3f} s   cpu {ceiling.alone_cpu:6.3f} s")
    print(f"  together: wall {ceiling.together_wall:6.3f} s   cpu {ceiling.together_cpu:6.3f} s")
    print(
        f"  two processes gain at most {ceiling.speedup:.2f}x here "
        f"(each copy's CPU {ceiling.cpu_inflation:.2f}x its CPU alone); "
        f"the -n 2 target is {target}x"
    )
