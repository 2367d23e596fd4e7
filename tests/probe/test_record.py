"""``--record``: the probe's exchanges saved as corpus cases, scrubbed, never overwriting."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
import yaml

from tests.probe.support import KINDS, probe, serving
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.lint.check import lint_text
from toolwire.harness.probe.recording import (
    CONVERSATION_SLUGS,
    RecordExistsError,
    case_id,
    check_free,
    save_run,
)
from toolwire.harness.probe.runner import ProbeRun

# Not key-shaped on purpose: only the exact-value replacement can catch it.
PLAIN_KEY = "probe-secret-Zx81Qw7Lm2"
SHAPED_KEY = "sk-proj-T3stKeyF0rTheProbe0123456789abcdefXYZ"
TODAY = datetime.date(2026, 5, 1)
CASES_PER_KIND = {"openai": 7, "anthropic": 7, "qwen": 7, "deepseek": 9, "no-parallel": 7}


def _probe_and_save(name: str, root: Path, key: str) -> ProbeRun:
    kind = KINDS[name]
    with serving(kind) as (upstream, base_url):
        run = probe(kind, base_url, api_key=key)
        received = upstream.received()
    sent = [{name.lower(): value for name, value in r.headers} for r in received]
    # The key did travel, in its header and nowhere else.
    if kind.dialect == "anthropic-messages":
        assert all(headers.get("x-api-key") == key for headers in sent)
    else:
        assert all(headers.get("authorization") == f"Bearer {key}" for headers in sent)
    save_run(run, root, TODAY)
    return run


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, ProbeRun]]:
    root = tmp_path_factory.mktemp("recorded")
    runs = {name: _probe_and_save(name, root, PLAIN_KEY) for name in sorted(KINDS)}
    return root, runs


def test_every_conversation_is_saved_as_a_valid_case(
    recorded: tuple[Path, dict[str, ProbeRun]],
) -> None:
    root, _runs = recorded
    report = validate_corpus(root)
    assert report.problems == ()
    by_model: dict[str, int] = {}
    for case in report.cases:
        folder = case.id.split("/")[1]
        by_model[folder] = by_model.get(folder, 0) + 1
        assert case.provenance.kind == "recorded"
        assert case.provenance.date == TODAY.isoformat()
        assert case.id.split("/")[2] in CONVERSATION_SLUGS
    expected = {case_id(KINDS[n].model, "x").split("/")[1]: c for n, c in CASES_PER_KIND.items()}
    assert by_model == expected


def test_the_saved_cases_break_no_protocol_rule_except_the_negative_one(
    recorded: tuple[Path, dict[str, ProbeRun]],
) -> None:
    root, _runs = recorded
    negatives = []
    for path in sorted(root.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        block = yaml.safe_load(text)["toolwire"]
        codes = sorted({v.code for v in lint_text(text, str(path)) if v.level == "MUST"})
        assert codes == sorted(block.get("expect", {}).get("violations", [])), path
        if codes:
            negatives.append(block["id"])
    assert negatives == ["probe/deepseek-v4-flash/reasoning-not-replayed"]


def test_the_dialect_of_each_saved_case_is_detected(
    recorded: tuple[Path, dict[str, ProbeRun]],
) -> None:
    root, _runs = recorded
    dialects = {case.id.split("/")[1]: case.dialect for case in validate_corpus(root).cases}
    assert dialects == {
        "gpt-4o-mini": "openai-chat",
        "claude-haiku-4-5": "anthropic-messages",
        "qwen-qwen3-coder-30b-a3b-instruct": "qwen-xml",
        "deepseek-v4-flash": "deepseek-chat",
        "mistralai-mistral-small-3-2-24b-instruct": "openai-chat",
    }


def test_the_api_key_never_reaches_a_file_or_the_profile(
    recorded: tuple[Path, dict[str, ProbeRun]], tmp_path: Path
) -> None:
    root, runs = recorded
    shaped_root = tmp_path / "shaped"
    shaped = _probe_and_save("openai", shaped_root, SHAPED_KEY)
    for folder, key in ((root, PLAIN_KEY), (shaped_root, SHAPED_KEY)):
        files = list(folder.rglob("*"))
        assert files
        for path in files:
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                assert key not in text, path
                assert "authorization" not in text.lower(), path
                assert "x-api-key" not in text.lower(), path
    for run in [*runs.values(), shaped]:
        profile = json.dumps(run.profile.as_json())
        assert PLAIN_KEY not in profile and SHAPED_KEY not in profile


def test_recording_refuses_to_overwrite_before_anything_is_sent(
    recorded: tuple[Path, dict[str, ProbeRun]],
) -> None:
    root, runs = recorded
    with pytest.raises(RecordExistsError) as raised:
        check_free(root, KINDS["openai"].model)
    assert "already exists; --record never overwrites" in str(raised.value)
    assert "gpt-4o-mini/basic-format.yaml" in str(raised.value)
    check_free(root, "a-model-never-probed")  # another model's folder is free
    before = {p: p.read_bytes() for p in root.rglob("*.yaml")}
    with pytest.raises(Exception, match="already exists"):
        save_run(runs["openai"], root, TODAY)  # the writer refuses too
    assert {p: p.read_bytes() for p in root.rglob("*.yaml")} == before
