"""A tiny corpus and the adapters the plugin's tests drive."""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

from toolwire.harness.corpus.loader import bundled_corpus_root

ADAPTERS = "tests.engine.test_adapters"
PASS = f"{ADAPTERS}:PassThrough"
# The pass-through with one SHOULD finding on the tiny corpus (SHOULD_CASE).
SHOULD_ADAPTER = f"{ADAPTERS}:ReordersResults"
GARBAGE = f"{ADAPTERS}:ReturnsGarbage"
# PassThrough that logs each conversion's worker and item (tests/plugin/recording.py).
RECORDING = "tests.plugin.recording:Recording"
RECORDING_LOG = "conversions.log"

# The one case on which SHOULD_ADAPTER gets a SHOULD verdict: the only one with
# three or more results of one turn (a faithful adapter gets none: issue 27).
SHOULD_CASE = "parallel/results-out-of-order-openai"
CASE_IDS = (
    "single-tool/weather-openai",
    "single-tool/weather-anthropic",
    "parallel/two-cities-openai",
    "parallel/two-cities-anthropic",
    "streaming/parallel-openai",
    SHOULD_CASE,
)
# A negative case (an input for `toolwire lint`): never an item.
NEGATIVE = "negative/pairing-orphan-result"


def tiny_corpus(folder: Path) -> Path:
    bundled = bundled_corpus_root()
    for case_id in (*CASE_IDS, NEGATIVE):
        target = folder / f"{case_id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled / f"{case_id}.yaml", target)
    return folder


def conversions_by_case(folder: Path, clear: bool = False) -> dict[str, list[tuple[str, str]]]:
    """case id -> (worker, direction) of each conversion the Recording adapter made."""
    log = folder / RECORDING_LOG
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            worker, item, direction = line.split("\t")
            found[item.rsplit("[", 1)[0]].append((worker, direction))
        if clear:
            log.unlink()
    return dict(found)
