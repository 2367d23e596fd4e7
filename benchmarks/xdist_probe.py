"""A pytest plugin for `make bench`: where each process of a session spends its CPU.

Loaded with ``-p xdist_probe`` (benchmarks/ on PYTHONPATH) and
``TOOLWIRE_PROBE_DIR`` set, each process (the xdist controller and every
worker, or the one serial process) writes ``<name>-<pid>.json`` there: its
own CPU clock (user + system, all its threads) at start-up, end of
collection, first and last item, and, in the controller, when the first
report arrived and when the last worker went down; and the wall clock when
its first item started and its last item ended. benchmarks/plugin_path.py
turns them into the critical path of ``pytest -n 2`` and into the wall time
before, during and after the items.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

_marks: dict[str, float] = {}


def _cpu() -> float:
    return time.process_time()


def _mark(name: str, once: bool = True) -> None:
    if once and name in _marks:
        return
    _marks[name] = _cpu()


def pytest_sessionstart(session: pytest.Session) -> None:
    _mark("sessionstart")


def pytest_collection_finish(session: pytest.Session) -> None:
    _mark("collected")


def pytest_runtest_setup(item: pytest.Item) -> None:
    _mark("first_item")
    _marks.setdefault("wall_first_item", time.time())


def pytest_runtest_teardown(item: pytest.Item) -> None:
    _mark("last_item", once=False)


@pytest.hookimpl(trylast=True)
def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    _marks["wall_last_item"] = time.time()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ:
        _mark("first_report")


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    _mark("last_nodedown", once=False)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.get("TOOLWIRE_PROBE_DIR")
    if not folder:
        return
    _mark("end")
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    (Path(folder) / f"{name}-{os.getpid()}.json").write_text(json.dumps(_marks), encoding="utf-8")
