"""``RunOptions``: how a run judges each case (timeout, profiles, the corpus, a call listener)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from toolwire.harness.corpus.loader import Corpus
from toolwire.harness.engine.calls import OnCall

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class RunOptions:
    timeout: float = DEFAULT_TIMEOUT
    # dialect -> profile the adapter's output is judged under
    profiles: Mapping[str, str] = field(default_factory=dict)
    # the corpus the case belongs to, to find its twins
    corpus: Corpus | None = None
    # hears of every adapter call as it settles (`toolwire convert`); not pickled
    on_call: OnCall | None = field(default=None, compare=False)
