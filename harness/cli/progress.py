"""Progress of a long run on stderr: a bar on a terminal, plain lines in CI.

stdout may carry the results JSON (``--format json``), so progress always goes
to stderr. On a terminal the bar shows the cases done, the counts so far and
the case being judged (a slow proxy shows which case it is slow on). Elsewhere
(CI logs, pipes) a redrawn bar would be noise: a plain line is written at most
every ``PLAIN_INTERVAL`` seconds, so short runs print nothing and a long one
shows it is alive.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import click

from toolwire.harness.corpus.case import Case
from toolwire.harness.engine.verdicts import Verdict

MODES = ("auto", "bar", "plain", "off")
PLAIN_INTERVAL = 30.0
# The outcomes worth counting while a run goes on, in the order shown.
SHOWN_OUTCOMES = ("fail", "error", "warn")
CASE_ID_WIDTH = 40


def resolve_mode(setting: str, stream: TextIO, environ: dict[str, str] | None = None) -> str:
    """``auto`` is a bar on an interactive terminal outside CI, else plain lines."""
    if setting != "auto":
        return setting
    env = os.environ if environ is None else environ
    interactive = hasattr(stream, "isatty") and stream.isatty()
    if interactive and not env.get("CI") and env.get("TERM", "") != "dumb":
        return "bar"
    return "plain"


class RunProgress:
    """Receives the engine's per-case callbacks and shows how far the run is."""

    def __init__(
        self,
        mode: str,
        total: int,
        stream: TextIO,
        clock: Callable[[], float] = time.monotonic,
        interval: float = PLAIN_INTERVAL,
    ) -> None:
        self.mode = mode
        self.total = total
        self.stream = stream
        self.done = 0
        self.counts: Counter[str] = Counter()
        self.current: str | None = None
        self._clock = clock
        self._interval = interval
        self._started = clock()
        self._last_line = self._started
        self._bar: Any = None

    def __enter__(self) -> RunProgress:
        if self.mode == "bar" and self.total:
            self._bar = click.progressbar(
                length=self.total,
                label="toolwire run",
                file=self.stream,
                show_eta=True,
                width=20,
                show_percent=False,
                show_pos=True,
                item_show_func=lambda _item: self.status(),
            )
            self._bar.__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

    def case_started(self, case: Case) -> None:
        self.current = case.id
        if self._bar is not None:
            # update() renders only when a step is made: redraw by hand so a
            # slow case shows while it runs
            self._bar.current_item = case.id
            self._bar.render_progress()

    def case_finished(self, case: Case, verdicts: Sequence[Verdict]) -> None:
        self.done += 1
        self.counts.update(v.outcome for v in verdicts)
        self.current = None
        if self._bar is not None:
            self._bar.update(1, case.id)
        elif self.mode == "plain":
            self._maybe_plain_line(case.id)

    def status(self) -> str:
        """``3 fail 1 warn  single-tool/weather``: counts so far and the case at hand."""
        current = self.current or ""
        if len(current) > CASE_ID_WIDTH:
            current = "…" + current[-(CASE_ID_WIDTH - 1) :]
        return "  ".join(part for part in (self.counts_text(), current) if part)

    def counts_text(self) -> str:
        shown = [f"{self.counts[o]} {o}" for o in SHOWN_OUTCOMES if self.counts[o]]
        return " ".join(shown) or "no failures"

    def _maybe_plain_line(self, last_case: str) -> None:
        now = self._clock()
        if now - self._last_line < self._interval or self.done >= self.total:
            return
        self._last_line = now
        percent = 100 * self.done // max(self.total, 1)
        self.stream.write(
            f"toolwire run: {self.done}/{self.total} cases ({percent}%) in "
            f"{now - self._started:.0f} s; {self.counts_text()}; last {last_case}\n"
        )
        self.stream.flush()
