"""The case index: each case's toolwire: block read alone, whole cases on demand."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from toolwire.harness.corpus.index import CaseEntry, IndexedCorpus, metadata_block, read_index
from toolwire.harness.corpus.loader import bundled_corpus_root, load_case, load_corpus
from toolwire.harness.errors import CorpusError

WEATHER = "single-tool/weather-openai"
TWIN = "single-tool/weather-anthropic"


def _copy(folder: Path, *case_ids: str) -> Path:
    for case_id in case_ids:
        target = folder / f"{case_id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled_corpus_root() / f"{case_id}.yaml", target)
    return folder


def test_the_index_of_the_bundled_corpus_equals_its_cases_and_reads_none_whole() -> None:
    root = bundled_corpus_root()
    index = read_index(root)
    corpus = load_corpus(root)
    assert index.loaded == []  # every bundled file has the layout the index cuts
    assert index.ids == corpus.ids
    assert index.entries == tuple(CaseEntry.of(case) for case in corpus)
    assert any(entry.is_negative for entry in index.entries)


def test_get_reads_only_the_case_asked_for_once(tmp_path: Path) -> None:
    index = read_index(_copy(tmp_path, WEATHER, TWIN))
    case = index[WEATHER]
    assert case == load_case(tmp_path / f"{WEATHER}.yaml", tmp_path)
    assert index.get(WEATHER) is case
    assert index.loaded == [WEATHER]
    assert index.get("no/such-case") is None
    with pytest.raises(CorpusError, match="no case"):
        index["no/such-case"]


def test_the_block_is_cut_wherever_it_stands(tmp_path: Path) -> None:
    _copy(tmp_path, WEATHER)
    path = tmp_path / f"{WEATHER}.yaml"
    text = path.read_text(encoding="utf-8")
    # The toolwire: block last, with a comment on its first line.
    start, end = text.index("toolwire:"), text.index("interactions:")
    block = text[start:end].replace("toolwire:", "toolwire:  # metadata", 1)
    path.write_text(text[:start] + text[end:] + block, encoding="utf-8")
    index = read_index(tmp_path)
    assert index.loaded == []
    assert index.entries == (CaseEntry.of(load_case(path, tmp_path)),)


def test_a_file_of_another_layout_is_read_whole_at_once(tmp_path: Path) -> None:
    _copy(tmp_path, WEATHER)
    path = tmp_path / f"{WEATHER}.yaml"
    # JSON is YAML too: no `toolwire:` line to cut out.
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(data), encoding="utf-8")
    index = read_index(tmp_path)
    assert index.loaded == [WEATHER]
    assert index.entries == (CaseEntry.of(load_case(path, tmp_path)),)
    assert metadata_block("version: 1\ntoolwire: {format: 1}\n") is None
    assert metadata_block("toolwire:\n  a: 1\ntoolwire:\n  a: 2\n") is None


def test_a_broken_toolwire_block_is_the_error_of_the_whole_file(tmp_path: Path) -> None:
    _copy(tmp_path, WEATHER)
    path = tmp_path / f"{WEATHER}.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("dialect: openai-chat", "dialect: openai-chta")
    )
    with pytest.raises(CorpusError) as from_index:
        read_index(tmp_path)
    with pytest.raises(CorpusError) as from_loader:
        load_case(path, tmp_path)
    assert str(from_index.value) == str(from_loader.value)


def test_broken_interactions_are_found_when_the_case_is_read(tmp_path: Path) -> None:
    _copy(tmp_path, WEATHER, TWIN)
    path = tmp_path / f"{WEATHER}.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("method: POST", "method: [", 1))
    index = read_index(tmp_path)  # the block is fine
    assert index.ids == (TWIN, WEATHER)
    with pytest.raises(CorpusError, match="invalid YAML"):
        index.get(WEATHER)
    assert index.get(TWIN) is not None


def test_a_case_that_changed_since_the_index_is_refused(tmp_path: Path) -> None:
    _copy(tmp_path, WEATHER)
    index = read_index(tmp_path)
    path = tmp_path / f"{WEATHER}.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("- single-tool", "- parallel"))
    with pytest.raises(CorpusError, match="reads differently now"):
        index.get(WEATHER)


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    entry = CaseEntry(WEATHER, "openai-chat", "openai", (), {}, False, tmp_path / "a.yaml")
    with pytest.raises(CorpusError, match="duplicate id"):
        IndexedCorpus(tmp_path, [entry, entry], [])


def test_a_corpus_read_whole_reads_nothing_more(tmp_path: Path) -> None:
    root = _copy(tmp_path, WEATHER, TWIN)
    index = IndexedCorpus.of_cases(root, load_corpus(root))
    assert index.loaded == [TWIN, WEATHER]
    index.get(WEATHER)
    assert index.loaded == [TWIN, WEATHER]
