"""A corpus read for its cases' ``toolwire:`` blocks only; whole cases on demand.

The pytest plugin collects one item per case, and an item needs only what
the case's ``toolwire:`` block says (id, dialect, features, whether it is a
negative case). Parsing every cassette costs several times more than that
block (the interactions are most of each file), and under pytest-xdist each
worker collects: so collection reads the index, and a worker loads in full
only the cases it judges (and their twins), when it judges them.

The block is cut out of the file's text and parsed alone when the file has
the layout every cassette written by toolwire has (one ``toolwire:`` line at
the top level, its values indented below it). A file with any other layout,
or whose block does not read cleanly alone, is parsed whole: then the index
and the strict loader agree by construction. When a case is loaded in full,
its metadata must equal its index entry, so a case never runs with
keywords or a negative flag it does not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import (
    Corpus,
    case_files,
    case_from_data,
    case_id_for,
    display_path,
    load_case,
    read_case_file,
    read_yaml,
    unknown_case_error,
)
from toolwire.harness.corpus.metadata import parse_metadata
from toolwire.harness.errors import CorpusError

try:  # as the loader: libyaml when PyYAML was built with it
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader  # type: ignore[assignment]

# A block with fewer brackets than this cannot nest deep enough to crash libyaml.
_FLOW_LIMIT = 1_000

_KEY = "toolwire:"
# The rest of the block's first line: nothing, or a comment.
_REST_OF_LINE = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\n|$)")
# The line after the block: the next one at column 0 that is no comment
# (a `- ` at column 0 would belong to the block; the parser judges it).
_AFTER_BLOCK = re.compile(r"^[^\s#-]", re.MULTILINE)


@dataclass(frozen=True)
class CaseEntry:
    """What collection knows of a case without reading its interactions."""

    id: str
    dialect: str
    profile: str
    features: tuple[str, ...]
    twins: Mapping[str, str]
    is_negative: bool
    source: Path

    @classmethod
    def of(cls, case: Case) -> CaseEntry:
        return cls(
            case.id,
            case.dialect,
            case.profile,
            case.features,
            dict(case.twins),
            case.is_negative,
            case.source,
        )


def metadata_block(text: str) -> str | None:
    """The ``toolwire:`` block of a cassette's text, or None when the text
    does not have exactly one such block at the top level."""
    # str.count runs in C: a regular expression over every line costs more.
    if text.count("\n" + _KEY) + text.startswith(_KEY) != 1:
        return None
    start = 0 if text.startswith(_KEY) else text.index("\n" + _KEY) + 1
    if _REST_OF_LINE.match(text, start + len(_KEY)) is None:
        return None  # `toolwire: {...}` on one line: the whole file is parsed
    after = _AFTER_BLOCK.search(text, start + len(_KEY))
    return text[start : after.start() if after else len(text)]


def read_entry(path: Path, root: Path) -> tuple[CaseEntry, Case | None]:
    """The index entry of one case file, and the whole case when reading the
    entry took parsing the whole file. Problems raise CorpusError, the same
    one ``load_case`` raises."""
    text = read_case_file(path)
    block = metadata_block(text)
    if block is not None:
        try:
            entry = _entry_of_block(block, path, root)
        except CorpusError:
            entry = None  # the whole file says what is wrong, with its own line numbers
        if entry is not None:
            return entry, None
    case = case_from_data(read_yaml(text, display_path(path)), path, root)
    return CaseEntry.of(case), case


def _entry_of_block(block: str, path: Path, root: Path) -> CaseEntry | None:
    # Error texts here are never shown (the whole file is read again to say
    # what is wrong), so the source is the plain path.
    source = str(path)
    if "&" in block or "*" in block or block.count("[") + block.count("{") > _FLOW_LIMIT:
        data = read_yaml(block, source)  # anchors or deep brackets: the guarded reader
    else:
        try:
            data = yaml.load(block, Loader=SafeLoader)
        except Exception:  # any value PyYAML cannot build: the whole file is read
            return None
    if not (isinstance(data, dict) and list(data) == ["toolwire"]):
        return None
    metadata = parse_metadata(data["toolwire"], source, _case_id(path, root))
    return CaseEntry(
        metadata.id,
        metadata.dialect,
        metadata.profile,
        metadata.features,
        dict(metadata.twins),
        metadata.expect.is_negative,
        path,
    )


def _case_id(path: Path, root: Path) -> str:
    """``case_id_for`` without resolving links where there are none: the
    walk below the root follows no folder link, so a file that is no link
    has the id its path below the root spells."""
    if path.is_symlink():
        return case_id_for(path, root)
    return path.relative_to(root).with_suffix("").as_posix()


class IndexedCorpus(Corpus):
    """A corpus whose cases are read in full when first asked for.

    Iteration and ``entries`` give index entries in id order without loading
    anything; ``get`` and ``[]`` load (once) and return whole cases.
    ``loaded`` lists the ids read in full, in the order they were."""

    def __init__(self, root: Path, entries: list[CaseEntry], cases: list[Case]) -> None:
        super().__init__(root, [])
        by_id: dict[str, CaseEntry] = {}
        for entry in entries:
            other = by_id.get(entry.id)
            if other is not None:
                raise CorpusError(
                    display_path(entry.source),
                    f"duplicate id {entry.id!r}, also used by {display_path(other.source)}",
                    "ids are unique: delete or rename one of the two files",
                )
            by_id[entry.id] = entry
        self._entries = dict(sorted(by_id.items()))
        self._cases = {case.id: case for case in cases}
        self.loaded: list[str] = [case.id for case in cases]

    @classmethod
    def of_cases(cls, root: Path, cases: Iterable[Case]) -> IndexedCorpus:
        """A corpus read whole already (nothing left to read on demand)."""
        found = list(cases)
        return cls(root, [CaseEntry.of(case) for case in found], found)

    @property
    def entries(self) -> tuple[CaseEntry, ...]:
        return tuple(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Case]:
        return (self[case_id] for case_id in self._entries)

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._entries

    def __getitem__(self, case_id: str) -> Case:
        case = self.get(case_id)
        if case is None:
            raise unknown_case_error(case_id, self.ids, display_path(self.root))
        return case

    def get(self, case_id: str) -> Case | None:
        case = self._cases.get(case_id)
        if case is not None:
            return case
        entry = self._entries.get(case_id)
        if entry is None:
            return None
        case = load_case(entry.source, self.root)
        if CaseEntry.of(case) != entry:
            raise CorpusError(
                display_path(entry.source),
                "reads differently now than when the session collected it",
                "was the file edited during the session? run again, "
                "and `toolwire corpus validate` to check it",
            )
        self._cases[case_id] = case
        self.loaded.append(case_id)
        return case

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._entries)


def read_index(root: Path) -> IndexedCorpus:
    """Index every case below ``root``; the first problem raises CorpusError."""
    entries: list[CaseEntry] = []
    cases: list[Case] = []
    for path in case_files(root):
        entry, case = read_entry(path, root)
        entries.append(entry)
        if case is not None:
            cases.append(case)
    return IndexedCorpus(root, entries, cases)
