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

from harness.adapters.base import LoadedAdapter
from harness.adapters.http_adapter import HttpProxyAdapter
from harness.adapters.loader import load_adapter
from harness.corpus.case import Case
from harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from harness.engine.runner import RunOptions, run_case
from harness.engine.verdicts import Verdict
from harness.proxy.process import free_port
from tests.proxy.toy_proxy import ToyProxy

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
    upstream_port = free_port()
    spec = (
        f"http://127.0.0.1:0?front={front}&back={back}&upstream_port={upstream_port}"
        f"&timeout={timeout}"
    )
    adapter = load_adapter(spec)
    implementation = adapter.implementation
    assert isinstance(implementation, HttpProxyAdapter)
    proxy = ToyProxy(f"http://127.0.0.1:{upstream_port}", front, back, fault).start()
    implementation.port = proxy.port
    try:
        yield adapter
    finally:
        proxy.stop()
        implementation.close()


def verdicts(adapter: LoadedAdapter, case_id: str, timeout: float = 10.0) -> list[Verdict]:
    return run_case(case(case_id), adapter, RunOptions(corpus=corpus(), timeout=timeout))


def by_rule(found: list[Verdict]) -> dict[str, Verdict]:
    return {verdict.rule_code: verdict for verdict in found}
