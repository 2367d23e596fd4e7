"""replay.assistant_altered: a client that alters the turn it sends back.

The rule has replay scope: ``toolwire lint`` judges it on a multi-request
cassette (request n+1 against response n), not on an adapter's output. The
broken input is a bundled cassette with the replayed assistant turn of its
second request altered by hand, written to tmp_path and linted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolwire.harness.corpus.loader import bundled_corpus_root
from toolwire.harness.lint.check import lint_text

Json = dict[str, Any]
Alteration = Callable[[Json], None]


def _empty_signature(request: Json) -> None:
    request["messages"][1]["content"][0]["signature"] = ""


def _reword_text(request: Json) -> None:
    for block in request["messages"][1]["content"]:
        if block["type"] == "text":
            block["text"] = "Let me check that order."


def _summarise_reasoning(request: Json) -> None:
    message = request["messages"][1]
    message["reasoning_content"] = message["reasoning_content"].split(". ")[0] + "."


ALTERATIONS: dict[str, tuple[str, Alteration]] = {
    "thinking-signature-emptied": ("thinking/tool-use-anthropic", _empty_signature),
    "assistant-text-reworded": ("mixed-text/text-then-call-anthropic", _reword_text),
    "reasoning-summarised": ("reasoning-replay/deepseek-two-step", _summarise_reasoning),
}


def _cassette(case_id: str) -> Json:
    text = (bundled_corpus_root() / f"{case_id}.yaml").read_text(encoding="utf-8")
    document: Json = yaml.safe_load(text)
    return document


def _lint_codes(document: Json, path: Path) -> list[str]:
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    violations = lint_text(path.read_text(encoding="utf-8"), path.name)
    return sorted(violation.code for violation in violations)


@pytest.mark.parametrize("name", sorted(ALTERATIONS))
def test_an_altered_replay_gives_replay_assistant_altered_only(name: str, tmp_path: Path) -> None:
    case_id, alter = ALTERATIONS[name]
    document = _cassette(case_id)
    assert _lint_codes(document, tmp_path / "original.yaml") == []  # the cassette is clean

    interaction = document["interactions"][1]["request"]
    request = json.loads(interaction["body"])
    alter(request)
    interaction["body"] = json.dumps(request, indent=2)
    assert _lint_codes(document, tmp_path / f"{name}.yaml") == ["replay.assistant_altered"]
