"""What `make bench` times, each as a function of a corpus folder.

* ``floor``: what any conformance run must pay, in one process: load the
  cases (YAML, JSON bodies) and make exactly the adapter calls the engine
  makes (every declared direction from the case's dialect, the adapter's
  ``id_mapping`` for it, and the trip back where the reverse is declared),
  with no check, no copy, no thread. ``id_mapping=False`` leaves out the
  ``id_mapping`` calls (the floor's definition before they were counted).
* ``harness``: what `toolwire run` does after start-up, in one process: load
  the corpus, ``run_corpus`` (every check), the results document as JSON.
* ``pytest_path``: the same corpus through the pytest plugin, in one process
  (``pytest.main`` in an empty folder: one item per case, each judging its
  case when it runs).
* ``end_to_end``: a command in a fresh interpreter, as a user runs it.

Each is timed as wall time and CPU time (user + system, all threads; for a
subprocess, its children's): on a shared machine CPU time is the steadier
figure, wall time what a user waits.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.harness.adapters.base import Direction, LoadedAdapter
from toolwire.harness.corpus.case import Case, Interaction
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import run_corpus
from toolwire.harness.payloads import events_to_wire
from toolwire.harness.results.document import results_document


@dataclass(frozen=True)
class Timing:
    wall: float  # seconds
    cpu: float  # seconds, user + system

    @staticmethod
    def best(timings: Sequence[Timing]) -> Timing:
        """The fastest of repeated runs: the least disturbed by other work."""
        return Timing(min(t.wall for t in timings), min(t.cpu for t in timings))


def timed(function: Callable[[], Any]) -> tuple[Timing, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu), value


def repeat_alternating(functions: Sequence[Callable[[], Any]], times: int) -> list[Timing]:
    """The best of ``times`` runs of each, taken in turn (a, b, c, a, b, c...):
    on a shared machine a burst of other work then weighs on all of them alike,
    not on whichever happened to run during it."""
    for function in functions:
        function()  # warm up: imports, compiled schemas, caches
    runs: list[list[Timing]] = [[] for _ in functions]
    for _ in range(times):
        for index, function in enumerate(functions):
            runs[index].append(timed(function)[0])
    return [Timing.best(found) for found in runs]


# --- the floor -------------------------------------------------------------------


def _payloads(case: Case, interaction: Interaction, kind: str) -> tuple[Any, Any] | None:
    """(payload of ``kind``, the request it answers) as the engine reads them."""
    if kind == "request":
        return (interaction.request_json(), None) if interaction.request_body_text else None
    if not interaction.is_success() or interaction.is_stream() != (kind == "stream"):
        return None
    answer = (
        events_to_wire(interaction.response_events())
        if kind == "stream"
        else interaction.response_json()
    )
    return answer, interaction.request_json()


def floor(root: Path, adapter: LoadedAdapter, id_mapping: bool = True) -> int:
    """Load the cases and make the engine's adapter calls, nothing else."""
    calls = 0
    for case in load_corpus(root):
        if case.is_negative:
            continue
        for kind in case.payload_kinds:
            directions = [
                d for d in adapter.directions if d.kind == kind and d.source == case.dialect
            ]
            for interaction in case.interactions:
                found = _payloads(case, interaction, kind)
                if found is None:
                    continue
                payload, request = found
                for direction in directions:
                    calls += _round_trip(adapter, direction, payload, request, id_mapping)
    return calls


def _round_trip(
    adapter: LoadedAdapter, direction: Direction, payload: Any, request: Any, id_mapping: bool
) -> int:
    """Convert (with the declared id mapping), and back where the reverse is
    declared; the calls made. A refusal (the adapter raising) ends the trip,
    as it does in the engine."""
    try:
        output = adapter.convert_direction(payload, direction, request)
    except Exception:
        return 1
    if id_mapping:
        with contextlib.suppress(Exception):
            adapter.id_mapping(payload, direction)
    reverse = Direction(direction.kind, direction.target, direction.source)
    if not adapter.supports(reverse) or direction.source == direction.target:
        return 1
    with contextlib.suppress(Exception):
        adapter.convert_direction(output, reverse)
    return 2


# --- the harness, in process -----------------------------------------------------------


def harness(root: Path, adapter: LoadedAdapter) -> int:
    """What `toolwire run` does once started; returns the number of verdicts."""
    corpus = load_corpus(root)
    result = run_corpus(corpus, adapter, RunOptions(corpus=corpus))
    json.dumps(results_document(result), ensure_ascii=False)
    return len(result.verdicts)


def pytest_path(root: Path, spec: str) -> int:
    """The plugin's run in this process; returns pytest's exit code."""
    import pytest

    with tempfile.TemporaryDirectory(prefix="toolwire-bench-") as folder:
        arguments = [
            folder,
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--rootdir",
            folder,
            "--toolwire-adapter",
            spec,
            "--toolwire-corpus",
            str(root),
        ]
        with open(os.devnull, "w") as sink:
            stdout = sys.stdout
            sys.stdout = sink
            try:
                return int(pytest.main(arguments))
            finally:
                sys.stdout = stdout


# --- end to end ------------------------------------------------------------------------


# a command, the folder it runs in, variables added to its environment
Command = tuple[Sequence[str], Path | None, dict[str, str] | None]


def end_to_end(
    command: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> Timing:
    """A command in a fresh interpreter: wall time and its CPU time (with
    ``env``, its environment is this one's updated with those variables)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    environment = {**os.environ, **env} if env else None
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {completed.returncode}: {completed.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def repeat_end_to_end_alternating(
    commands: Sequence[tuple[Sequence[str], Path | None] | Command], times: int
) -> list[Timing]:
    """The best of ``times`` runs of each command (``(command, cwd)`` or
    ``(command, cwd, env)``), taken in turn, after one run of each that warms
    the file cache (as ``repeat_alternating``)."""
    for entry in commands:
        end_to_end(*entry)
    runs: list[list[Timing]] = [[] for _ in commands]
    for _ in range(times):
        for index, entry in enumerate(commands):
            runs[index].append(end_to_end(*entry))
    return [Timing.best(found) for found in runs]
