"""Speed: a 100,000-turn request parsed in 3.7 s, 1.7 s with fewer garbage-collector passes.

Parsing a long conversation creates millions of small objects that all stay
alive. With Python's default first threshold (700 allocations) the collector
scans them again and again and costs more than the parsing itself: a
100,000-turn request parsed in 3.7 s with the default and in 1.7 s with a
threshold of 50,000 (this machine, docs/hostile-input.md). Cycles are still
collected, only less often; the previous thresholds come back afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

RUN_THRESHOLD = 50_000


@contextmanager
def fewer_gc_passes(threshold: int = RUN_THRESHOLD) -> Iterator[None]:
    previous = gc.get_threshold()
    if previous[0] == 0 or previous[0] >= threshold:  # 0: someone disabled it on purpose
        yield
        return
    gc.set_threshold(threshold, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
