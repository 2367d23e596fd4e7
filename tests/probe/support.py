"""Helpers for the probe tests (this module holds no tests).

The recorded probe conversations live in ``conversations/``, one cassette
per kind of model, in the corpus format. The replay upstream
(harness/proxy/replay.py) serves one of them on 127.0.0.1 and matches each
request by its JSON body (strict), so a probe that sends anything else than
the recorded requests gets a 404 and fails loudly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.probe.runner import ProbeOptions, ProbeRun, run_probe
from toolwire.harness.proxy.replay import ReplayUpstream

CONVERSATIONS = Path(__file__).resolve().parent / "conversations"


@dataclass(frozen=True)
class Kind:
    """One kind of model: its recorded conversation and how to probe it."""

    case_id: str
    model: str
    dialect: str
    # The base URL's path below the host (the providers' SDK conventions).
    base_path: str


KINDS: dict[str, Kind] = {
    "openai": Kind("openai-parallel", "gpt-4o-mini", "openai-chat", "/v1"),
    "anthropic": Kind("anthropic-tool-use", "claude-haiku-4-5", "anthropic-messages", ""),
    "qwen": Kind("qwen-xml-in-text", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "openai-chat", "/v1"),
    "deepseek": Kind("deepseek-thinking", "deepseek-v4-flash", "openai-chat", ""),
    "no-parallel": Kind(
        "openrouter-no-parallel",
        "mistralai/mistral-small-3.2-24b-instruct",
        "openai-chat",
        "/api/v1",
    ),
}


@cache
def conversation(case_id: str) -> Case:
    found = load_corpus(CONVERSATIONS).get(case_id)
    assert found is not None, case_id
    return found


@contextmanager
def serving(kind: Kind) -> Iterator[tuple[ReplayUpstream, str]]:
    """The replay upstream serving ``kind``'s conversation, and the base URL to probe."""
    # A stand-in provider: it keeps the credentials it receives, so the tests can
    # check the key travelled in its header and nowhere else.
    with ReplayUpstream(keep_secrets=True) as upstream:
        upstream.serve(conversation(kind.case_id).interactions)
        yield upstream, upstream.url + kind.base_path


def probe(kind: Kind, base_url: str, api_key: str | None = None) -> ProbeRun:
    return run_probe(ProbeOptions(base_url, kind.model, kind.dialect, api_key, timeout=10.0))


def recorded_path(kind: Kind) -> str:
    """The path the recorded conversation was sent to (what the probe must hit)."""
    return urlsplit(conversation(kind.case_id).interactions[0].uri).path
