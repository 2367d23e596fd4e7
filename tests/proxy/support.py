"""Helpers for the proxy tests (this module holds no tests).

Everything listens on 127.0.0.1 only and is stopped by the fixture that
started it. Cases come from the bundled corpus by id: ones present since the
corpus began, so the tests do not depend on later additions.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from tests.proxy.toy_proxy import ToyProxy
from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.adapters.http_adapter import HttpProxyAdapter
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.verdicts import Verdict

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
TOY_PROXY_CMD = f"{PYTHON} -m tests.proxy.toy_proxy --upstream {{upstream_url}} --port {{port}}"


@cache
def corpus() -> Corpus:
    return load_corpus(bundled_corpus_root())


def case(case_id: str) -> Case:
    found = corpus().get(case_id)
    assert found is not None, case_id
    return found


@contextmanager
def proxied_adapter(
    front: str, back: str, fault: str | None = None, timeout: float = 5.0
) -> Iterator[LoadedAdapter]:
    """An http:// adapter wired to a toy proxy the test owns (both stopped after)."""
    adapter, upstream_url = started_upstream(
        f"http://127.0.0.1:0?front={front}&back={back}&upstream_port=1&timeout={timeout}"
    )
    implementation = adapter.implementation
    assert isinstance(implementation, HttpProxyAdapter)
    proxy = ToyProxy(upstream_url, front, back, fault).start()
    implementation.port = proxy.port
    try:
        yield adapter
    finally:
        proxy.stop()
        implementation.close()


def started_upstream(spec: str) -> tuple[LoadedAdapter, str]:
    """The adapter of ``spec`` with its replay upstream already listening, and
    its URL. The upstream binds a port the system picks (the spec's
    ``upstream_port`` is a placeholder): a port chosen free and bound later
    could be taken in between by a parallel test."""
    adapter = load_adapter(spec)
    implementation = adapter.implementation
    assert isinstance(implementation, HttpProxyAdapter)
    implementation.upstream_port = 0
    if implementation.port is None:
        implementation.port = 1  # the caller points it at its proxy once that listens
    implementation.start()
    assert implementation.upstream_url is not None
    return adapter, implementation.upstream_url


def verdicts(adapter: LoadedAdapter, case_id: str, timeout: float = 10.0) -> list[Verdict]:
    return run_case(case(case_id), adapter, RunOptions(corpus=corpus(), timeout=timeout))


def by_rule(found: list[Verdict]) -> dict[str, Verdict]:
    return {verdict.rule_code: verdict for verdict in found}
