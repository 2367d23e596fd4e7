"""Loading case files into ``Case`` objects, and a corpus into a ``Corpus``.

Loading is strict (any problem is a one-line ``CorpusError``) and fast: it
parses YAML with libyaml when available and never imports vcrpy. Payload
bodies stay text until someone asks for them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.cassette import check_top_level, parse_interactions
from toolwire.harness.corpus.metadata import parse_metadata
from toolwire.harness.corpus.vocabulary import CASE_SUFFIXES, closest
from toolwire.harness.errors import CorpusError
from toolwire.harness.json_text import digit_limit, is_digit_limit_error
from toolwire.harness.redaction import redact

try:  # libyaml is several times faster; fall back to the pure-Python loader.
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

BUNDLED_PACKAGE = "toolwire._corpus"

# libyaml recurses in C for each level of flow nesting ([ or {) and crashes
# the process (a segmentation fault) somewhere past 20,000 levels; the pure
# Python loader stops with RecursionError instead. Text whose brackets could
# nest this deep is read by the Python loader.
FLOW_DEPTH_FOR_PYTHON_LOADER = 5_000
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a link loop (Python < 3.13)
        return str(path)


def bundled_corpus_root() -> Path:
    """The folder of the corpus shipped with toolwire."""
    root = files(BUNDLED_PACKAGE)
    # resolve(): from a checkout the package is reached through the link
    # toolwire/_corpus; the folder that holds the cases is corpus/.
    path = Path(str(root)).resolve()
    if not path.is_dir():
        raise CorpusError(
            BUNDLED_PACKAGE,
            "the bundled corpus is not a folder on disk",
            "reinstall toolwire from a wheel or an editable checkout, or pass --corpus PATH",
        )
    return path


def is_checkout_corpus(root: Path) -> bool:
    """Whether ``root`` is the corpus/ folder of a toolwire source checkout
    (an editable install), where adding a case is editing the project."""
    project = root.parent / "pyproject.toml"
    try:
        return root.name == "corpus" and 'name = "toolwire"' in project.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def read_yaml(text: str, source: str) -> Any:
    """Parse YAML; a syntax error names the file and line (never the file's text).

    Aliases are followed only as far as ``ALIAS_EXPANSION_LIMIT``: a "billion
    laughs" file is a few lines that PyYAML loads in no time as shared
    objects, but whatever then walks it (printing a header value, comparing
    an ``expect`` value) walks every expansion, for hours or until memory
    runs out. vcrpy writes an alias where one object is shared, so small
    expansions stay allowed."""
    loader = (yaml.SafeLoader if _may_nest_deeper_than(text) else _Loader)(text)
    try:  # what yaml.load does, with a look at the node graph before building it
        node = loader.get_single_node()
        if node is None:
            return None
        _check_alias_expansion(node, source)
        return _construct(loader, node, source)
    except RecursionError:
        raise CorpusError(
            source, "nests deeper than toolwire can read", "a case file is a flat cassette"
        ) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        if mark is None:
            raise CorpusError(source, f"invalid YAML: {problem}", "fix the YAML syntax") from None
        line, column = mark.line + 1, mark.column + 1
        raise CorpusError(
            f"{source}:{line}",
            f"invalid YAML: {problem}",
            f"fix the syntax at line {line}, column {column}",
        ) from None
    except yaml.reader.ReaderError as error:
        # libyaml gives the character as a number, the Python reader as text.
        character = error.character
        code = ord(character) if isinstance(character, str) else int(character)
        raise CorpusError(
            source,
            f"invalid YAML: character U+{code:04X} at offset {error.position} "
            "is not allowed in YAML",
            "remove control characters; a case file is UTF-8 text",
        ) from None
    except yaml.YAMLError as error:
        raise CorpusError(source, f"invalid YAML: {type(error).__name__}", "fix the YAML") from None
    finally:
        loader.dispose()


_VALUE_HINT = "quote the value to keep it as text"


def _construct(loader: Any, node: yaml.Node, source: str) -> Any:
    """The values of the node graph; a value YAML cannot build is one line.

    PyYAML's constructors raise more than YAMLError on a value they cannot
    build: ValueError for an integer past Python's digit limit or a date
    that is none (2024-13-45), AttributeError for ``!!timestamp`` on text
    that is no timestamp, and so on."""
    try:
        return loader.construct_document(node)
    except (yaml.YAMLError, RecursionError):
        raise
    except Exception as error:
        problem = _value_problem(error)
        raise CorpusError(source, f"invalid YAML value: {problem}", _VALUE_HINT) from None


def _value_problem(error: Exception) -> str:
    if is_digit_limit_error(error):
        return f"an integer has more than {digit_limit():,} digits"
    if isinstance(error, ValueError | OverflowError):
        return str(error)[:200] or type(error).__name__
    return f"a tagged value does not fit its tag ({type(error).__name__})"


# Nodes that aliases may add beyond those written out in the file.
ALIAS_EXPANSION_LIMIT = 100_000
_SIZE_CAP = 1 << 62  # far past any file's node count; keeps the sums small


def _check_alias_expansion(root: yaml.Node, source: str) -> None:
    """Refuse a node graph whose aliases expand past ``ALIAS_EXPANSION_LIMIT``
    nodes, or that refers to itself (an alias inside its own anchor).

    One pass over the distinct nodes (iterative: block nesting may be deep),
    each node's expanded size computed once and counted at every reference."""
    size: dict[int, int] = {}  # id(node) -> expanded node count, capped
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            size[key] = min(_SIZE_CAP, 1 + sum(size[id(c)] for c in _children(node)))
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise CorpusError(
                source,
                "invalid YAML: an alias refers to the node that holds it (a recursive structure)",
                "write the value out; a cassette holds plain JSON-like values",
            )
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in size)
    if size[id(root)] - len(size) > ALIAS_EXPANSION_LIMIT:
        raise CorpusError(
            source,
            f"invalid YAML: its aliases (*name) expand to more than {ALIAS_EXPANSION_LIMIT:,} "
            "values (an alias bomb?)",
            "write the values out instead of through aliases",
        )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _may_nest_deeper_than(text: str, limit: int = FLOW_DEPTH_FOR_PYTHON_LOADER) -> bool:
    """Whether brackets in ``text`` nest ``limit`` deep (counting those inside
    strings too: an over-estimate only costs the slower loader)."""
    if text.count("[") + text.count("{") < limit:
        return False  # the common case, at the cost of two scans in C
    brackets = text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    depth = 0
    for byte in brackets:
        if byte in b"[{":
            depth += 1
            if depth >= limit:
                return True
        elif depth:
            depth -= 1
    return False


def case_id_for(path: Path, root: Path) -> str:
    """The id a case file must carry: its path below ``root`` without suffix."""
    try:
        relative = path.resolve().relative_to(root.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a link loop (Python < 3.13)
        raise CorpusError(
            display_path(path),
            "is a link that leads round in a loop",
            "delete the link, or point it at a case file",
        ) from None
    except ValueError:
        raise CorpusError(
            display_path(path),
            f"is not inside the corpus folder {display_path(root)}",
            "move the file below the corpus root",
        ) from None
    return relative.with_suffix("").as_posix()


def case_from_data(data: Any, path: Path, root: Path) -> Case:
    """Build a Case from parsed YAML, checking both layers."""
    source = display_path(path)
    try:
        mapping = check_top_level(data, source)
        metadata = parse_metadata(mapping.get("toolwire"), source, case_id_for(path, root))
        interactions = parse_interactions(mapping.get("interactions"), source)
    except CorpusError as error:
        raise _redacted(error) from None
    return Case(
        id=metadata.id,
        description=metadata.description,
        features=metadata.features,
        dialect=metadata.dialect,
        profile=metadata.profile,
        provenance=metadata.provenance,
        interactions=interactions,
        source=path,
        twins=metadata.twins,
        expect=metadata.expect,
    )


def read_case_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CorpusError(display_path(path), "is not UTF-8 text", "save it as UTF-8") from None
    except OSError as error:
        raise CorpusError(display_path(path), f"cannot be read: {error.strerror}") from None


def load_case(path: Path, root: Path) -> Case:
    """Load and check one case file below the corpus folder ``root``."""
    text = read_case_file(path)
    return case_from_data(read_yaml(text, display_path(path)), path, root)


def corpus_folder_problem(root: Path) -> tuple[str, str] | None:
    """Why ``root`` cannot be a corpus folder, with a hint; None when it can."""
    if root.is_dir():
        return None
    if root.is_file():
        hint = "--corpus takes the corpus folder that holds the case files"
        if root.suffix in CASE_SUFFIXES:
            hint += f"; to judge this case alone, keep the folder and add --select '*/{root.stem}'"
        return "is a file, not a corpus folder", hint
    return "does not exist", "pass the folder that holds the case files"


def case_files(root: Path, problems: list[CorpusError] | None = None) -> list[Path]:
    """Every case file below ``root`` (hidden folders skipped), in path order.

    A folder that cannot be read, or a link to a folder (a link can lead out
    of the corpus or round in a loop), is never skipped in silence: it raises
    CorpusError, or is added to ``problems`` when that list is given."""
    problem = corpus_folder_problem(root)
    if problem is not None:
        raise CorpusError(display_path(root), *problem)
    found: list[Path] = []

    def refuse(error: CorpusError) -> None:
        if problems is None:
            raise error
        problems.append(error)

    def unreadable(error: OSError) -> None:
        where = display_path(Path(error.filename)) if error.filename else display_path(root)
        refuse(
            CorpusError(
                where,
                f"cannot be read: {error.strerror or type(error).__name__}",
                "make the folder readable, or move it out of the corpus",
            )
        )

    for folder, subfolders, names in os.walk(root, onerror=unreadable):
        kept = []
        for name in sorted(subfolders):
            if name.startswith((".", "__")):
                continue
            if (Path(folder) / name).is_symlink():
                refuse(
                    CorpusError(
                        display_path(Path(folder) / name),
                        "is a link to a folder; toolwire does not follow links in a corpus",
                        "copy the cases into the corpus, or pass the linked folder as --corpus",
                    )
                )
                continue
            kept.append(name)
        subfolders[:] = kept
        found.extend(Path(folder) / name for name in names if name.endswith(CASE_SUFFIXES))
    return sorted(found)


class Corpus:
    """A read-only collection of cases: lookup by id, iteration in id order."""

    def __init__(self, root: Path, cases: list[Case] | tuple[Case, ...]) -> None:
        self.root = root
        by_id: dict[str, Case] = {}
        for case in cases:
            other = by_id.get(case.id)
            if other is not None:
                raise duplicate_id_error(case, other)
            by_id[case.id] = case
        self._by_id = dict(sorted(by_id.items()))

    def __len__(self) -> int:
        return len(self._by_id)

    def __iter__(self) -> Iterator[Case]:
        return iter(self._by_id.values())

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._by_id

    def __getitem__(self, case_id: str) -> Case:
        case = self._by_id.get(case_id)
        if case is None:
            raise unknown_case_error(case_id, self.ids, display_path(self.root))
        return case

    def get(self, case_id: str) -> Case | None:
        return self._by_id.get(case_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._by_id)


def load_corpus(root: Path) -> Corpus:
    """Load every case below ``root``; the first problem raises CorpusError
    (``validate_corpus`` collects them all instead)."""
    return Corpus(root, [load_case(path, root) for path in case_files(root)])


def duplicate_id_error(case: Case, other: Case) -> CorpusError:
    return CorpusError(
        display_path(case.source),
        f"duplicate id {case.id!r}, also used by {display_path(other.source)}",
        "ids are unique: delete or rename one of the two files",
    )


def unknown_case_error(case_id: str, ids: tuple[str, ...], where: str) -> CorpusError:
    near = closest(case_id, ids, count=3)
    hint = f"did you mean: {', '.join(near)}?" if near else "`toolwire corpus list` shows the ids"
    return CorpusError(where, f"no case {case_id!r}", hint)


def bare_message(error: CorpusError) -> str:
    """The message of a CorpusError without its ``source: `` prefix."""
    return error.message.removeprefix(f"{error.source}: ")


def _redacted(error: CorpusError) -> CorpusError:
    """Error text may quote the file; never let it quote a credential."""
    return CorpusError(error.source, redact(bare_message(error)), error.hint)
