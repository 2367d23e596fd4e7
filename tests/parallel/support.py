"""A small corpus copied from the bundled one, and results compared without timings."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from toolwire.harness.corpus.loader import bundled_corpus_root

# One or two cases of each kind of payload and dialect, twins included.
SMALL_CORPUS_IDS = (
    "single-tool/weather-openai",
    "single-tool/weather-anthropic",
    "parallel/two-cities-openai",
    "parallel/two-cities-anthropic",
    "streaming/parallel-openai",
    "streaming/parallel-anthropic",
    "thinking/tool-use-deepseek",
    "thinking/stream-anthropic",
    "qwen-xml/two-typed-calls",
    "reasoning-replay/deepseek-two-step",
    "error-result/missing-file-openai",
    "negative/pairing-orphan-result",
)
# The only fields of a results document that may differ between two runs.
TIMING_FIELDS = ("started", "finished")


def small_corpus(folder: Path) -> Path:
    bundled = bundled_corpus_root()
    for case_id in SMALL_CORPUS_IDS:
        target = folder / f"{case_id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled / f"{case_id}.yaml", target)
    return folder


def without_timings(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key not in TIMING_FIELDS}
