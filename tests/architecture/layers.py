"""The import graph of toolwire's own modules, and the two checks over it.

Pure and small: ``module_sources`` reads a folder into ``{module name: source
text}``; everything else works on that mapping, so a test can add a synthetic
module or a synthetic import line and see the checks name it.

What counts as an import: every ``import`` and ``from ... import`` statement
at any nesting level — inside functions (a lazy import still runs, and still
closes a circle when it does) and under ``if TYPE_CHECKING:`` (a circle the
type checker needs is a circle in the design, even if the interpreter never
runs it). ``from package import name`` is an import of ``package.name`` when
that is a module, else of ``package``. Importing a submodule is not counted as
importing its parent packages: Python runs their ``__init__`` first, but those
only re-export downward, and counting it would make every package a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

Graph = dict[str, dict[str, int]]  # module -> {imported module: first line}


def module_sources(folder: Path, package: str) -> dict[str, str]:
    """Every ``.py`` file under ``folder`` as ``{dotted module name: source}``;
    ``folder`` itself is the package ``package`` (a ``__init__`` names its package)."""
    sources: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        sources[".".join((package, *parts))] = path.read_text(encoding="utf-8")
    return sources


def _packages(sources: Mapping[str, str]) -> set[str]:
    """Modules that are packages: those some other module sits under."""
    return {name.rsplit(".", 1)[0] for name in sources if "." in name} & set(sources)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(
    module: str, source: str, known: set[str], is_package: bool = False
) -> dict[str, int]:
    """The known modules ``module``'s source imports, each with its first line."""
    found: dict[str, int] = {}

    def add(name: str, line: int) -> None:
        if name in known and name != module:
            found.setdefault(name, line)
        elif name != module:
            # `import a.b.c` of an unknown tail (a class, a missing module): its known prefix
            head = name.rsplit(".", 1)[0] if "." in name else ""
            if head:
                add(head, line)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in known else base, node.lineno)
    return found


def import_graph(sources: Mapping[str, str]) -> Graph:
    known = set(sources)
    packages = _packages(sources)
    return {name: imports_of(name, text, known, name in packages) for name, text in sources.items()}


# --- circles -------------------------------------------------------------------------


def cycles(graph: Graph) -> list[str]:
    """One circle per strongly connected group of modules, as ``a -> b -> a``
    (the shortest one through the group's first module, by name)."""
    found = []
    for group in _groups(graph):
        found.append(" -> ".join(_shortest_cycle(graph, min(group), group)))
    return sorted(found)


def _groups(graph: Graph) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one module (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def enter(node: str) -> tuple[str, list[str]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return node, sorted(target for target in graph[node] if target in graph)

    for root in sorted(graph):
        if root in index:
            continue
        work = [enter(root)]
        while work:
            node, todo = work[-1]
            if todo:
                target = todo.pop()
                if target not in index:
                    work.append(enter(target))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return groups


def _shortest_cycle(graph: Graph, start: str, group: set[str]) -> list[str]:
    """Breadth first from ``start`` until an import leads back to it."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if target in group and target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is in no circle")  # pragma: no cover


# --- declared directions -------------------------------------------------------------


def matches(module: str, pattern: str) -> bool:
    """``a.b`` matches ``a.b`` and everything under it; ``a.b.`` only what is
    under it. A pattern that names no module (a package not written yet)
    matches nothing, which is no error."""
    if pattern.endswith("."):
        return module.startswith(pattern)
    return module == pattern or module.startswith(pattern + ".")


def _any(module: str, patterns: Iterable[str]) -> bool:
    return any(matches(module, pattern) for pattern in patterns)


@dataclass(frozen=True)
class Layers:
    """``order``: layers from the top down, each a few module patterns. A
    module may import modules of its own layer and of those below, never above."""

    name: str
    order: tuple[tuple[str, ...], ...]

    def level(self, module: str) -> int | None:
        for number, layer in enumerate(self.order):
            if _any(module, layer):
                return number
        return None


@dataclass(frozen=True)
class Forbidden:
    """Modules matching ``sources`` (and not ``except_sources``) may not import
    modules matching ``targets``; a package's own modules are always allowed."""

    name: str
    sources: tuple[str, ...]
    targets: tuple[str, ...]
    except_sources: tuple[str, ...] = ()

    def forbids(self, source: str, target: str) -> bool:
        return (
            _any(source, self.sources)
            and not _any(source, self.except_sources)
            and _any(target, self.targets)
            and not matches(target, source)
        )


def violations(
    graph: Graph, layers: Iterable[Layers] = (), forbidden: Iterable[Forbidden] = ()
) -> list[str]:
    """Every import that runs up a declared layer order or breaks a rule, one line each."""
    orders, rules = list(layers), list(forbidden)
    found = []
    for source in sorted(graph):
        for target, line in sorted(graph[source].items()):
            at = f"{source} imports {target} (line {line})"
            for order in orders:
                low, high = order.level(source), order.level(target)
                if low is not None and high is not None and high < low:
                    found.append(f"{at}: {target} is above it in the {order.name} layers")
            found.extend(f"{at}: {rule.name}" for rule in rules if rule.forbids(source, target))
    return found
