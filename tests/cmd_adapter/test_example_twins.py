"""examples/node-adapter: the Node.js cmd: adapter passes the same checks as its
Python twin, in-process and over the protocol, on every openai-chat case."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.adapters.cmd import CmdAdapter
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "node-adapter"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed on this machine")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus(bundled_corpus_root())


def _verdicts(adapter: LoadedAdapter, corpus: Corpus) -> list[tuple[Any, ...]]:
    found = []
    for case in corpus:
        if case.dialect != "openai-chat":
            continue
        for verdict in run_case(case, adapter, RunOptions(corpus=corpus, timeout=20)):
            found.append(
                (verdict.item_id.split("[")[0], verdict.outcome, verdict.message, verdict.findings)
            )
    return found


@pytest.fixture(scope="module")
def python_twin_verdicts(corpus: Corpus) -> list[tuple[Any, ...]]:
    sys.path.insert(0, str(EXAMPLE))
    try:
        adapter = load_adapter("twin:ExampleConverter")
    finally:
        sys.path.remove(str(EXAMPLE))
    return _verdicts(adapter, corpus)


def _twin_module() -> Any:
    spec = importlib.util.spec_from_file_location("example_twin", EXAMPLE / "twin.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _close(adapter: LoadedAdapter) -> None:
    assert isinstance(adapter.implementation, CmdAdapter)
    adapter.implementation.close()


@pytest.fixture
def node_adapter() -> Iterator[LoadedAdapter]:
    adapter = load_adapter(f"cmd:{NODE} {EXAMPLE / 'adapter.js'}")
    yield adapter
    _close(adapter)


def test_the_python_twin_converts_and_passes(python_twin_verdicts: list[tuple[Any, ...]]) -> None:
    outcomes = [outcome for _, outcome, _, _ in python_twin_verdicts]
    assert outcomes.count("pass") > 200
    assert "fail" not in outcomes and "error" not in outcomes


@needs_node
def test_the_node_adapter_gives_the_same_verdicts_as_its_python_twin(
    node_adapter: LoadedAdapter,
    corpus: Corpus,
    python_twin_verdicts: list[tuple[Any, ...]],
) -> None:
    assert node_adapter.name == "example-openai-to-anthropic"
    assert _verdicts(node_adapter, corpus) == python_twin_verdicts


def test_the_python_twin_over_the_protocol_gives_the_same_verdicts(
    corpus: Corpus, python_twin_verdicts: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLWIRE_CMD_VALIDATE", "1")  # and every message is valid
    adapter = load_adapter(f"cmd:{sys.executable} {EXAMPLE / 'twin.py'}")
    try:
        assert _verdicts(adapter, corpus) == python_twin_verdicts
    finally:
        _close(adapter)


BAD_REQUESTS: list[dict[str, Any]] = [
    {"model": "m", "n": 2, "messages": []},
    {"model": "m", "messages": [{"role": "narrator", "content": "x"}]},
    {
        "model": "m",
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{"}}
                ],
            }
        ],
    },
    {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}],
    },
]


@needs_node
@pytest.mark.parametrize("request_body", BAD_REQUESTS, ids=["n", "role", "arguments", "image"])
def test_both_refuse_the_same_inputs_with_the_same_message(
    node_adapter: LoadedAdapter, request_body: dict[str, Any]
) -> None:
    twin = _twin_module()
    with pytest.raises(twin.ConversionError) as python_error:
        twin.convert_request(request_body)
    with pytest.raises(Exception) as node_error:
        node_adapter.convert(request_body, "request", "openai-chat", "anthropic-messages")
    assert str(node_error.value) == f"ConversionError: {python_error.value}"


@needs_node
def test_node_is_recent_enough_for_the_example() -> None:
    assert NODE is not None
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=True)
    assert int(version.stdout.strip().lstrip("v").split(".")[0]) >= 18
