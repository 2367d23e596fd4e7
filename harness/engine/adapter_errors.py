"""Where an adapter raised: the innermost traceback frame in the adapter's code.

"the adapter raised KeyError: 'x'" says what, not where; the adapter's author
needs the file and line. The frame shown is the innermost one in the
adapter's own code: the modules its class (every class of its MRO) and its
``convert`` come from, counted from their top-level package, so a helper
module of the same package counts too. When no frame lies there (an adapter
that is a thin wrapper over a library), the innermost frame outside toolwire
and the standard library is shown instead. toolwire's own frames are never
shown, except for the converters that ship inside it (the reference adapter),
whose code is their own package.

A ``cmd:`` or ``http://`` adapter runs in another process: no Python frame of
it exists here, so none is named; what the process or proxy said is already
in its error (``out_of_process``).
"""

from __future__ import annotations

import inspect
import sys
import sysconfig
import traceback
from functools import cache
from pathlib import Path

import toolwire.conformance
import toolwire.harness
from toolwire.harness.engine.collect import MAX_MESSAGE_CHARS, describe_error

# The adapters that talk to a converter in another process.
_OUT_OF_PROCESS = ("toolwire.harness.adapters.cmd", "toolwire.harness.adapters.http_adapter")
# The protocol's own module: a base class every adapter may share, never its code.
_PROTOCOL_MODULE = "toolwire.harness.adapters.base"
# Room kept for the location when an exception message is shortened.
_LOCATION_ROOM = 250


def out_of_process(implementation: object) -> bool:
    """A ``cmd:`` or ``http://`` adapter: its code runs in another process."""
    module = type(implementation).__module__
    return module.startswith(_OUT_OF_PROCESS)


def raised_at(error: BaseException, implementation: object) -> str | None:
    """``mypkg/conv.py:42 in to_openai`` for the frame of the adapter's code
    that raised ``error``, or None when no such frame exists (an adapter in
    another process, or an exception raised by toolwire itself)."""
    if out_of_process(implementation):
        return None
    frames = [
        (Path(frame.filename), frame)
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename and not frame.filename.startswith("<")
    ]
    roots = adapter_roots(implementation)
    candidates = [(path, frame) for path, frame in frames if _not_ours(path, roots)]
    own = [(path, frame) for path, frame in candidates if _inside(path, roots)]
    chosen = own or candidates
    if not chosen:
        return None
    path, frame = chosen[-1]  # the innermost
    return f"{display_path(path)}:{frame.lineno} in {frame.name}"


def describe_adapter_error(error: BaseException, implementation: object) -> str:
    """``Type: message (at file:line in function)``; the message is shortened
    first, so the location survives a huge message."""
    location = raised_at(error, implementation)
    if location is None:
        return describe_error(error)
    return f"{describe_error(error, MAX_MESSAGE_CHARS - _LOCATION_ROOM)} (at {location})"


def adapter_roots(implementation: object) -> tuple[Path, ...]:
    """The files and folders that hold the adapter's own code."""
    names: list[str] = []
    if inspect.ismodule(implementation):
        names.append(implementation.__name__)
    else:
        names.extend(klass.__module__ for klass in type(implementation).__mro__)
        convert = getattr(implementation, "convert", None)
        function = getattr(convert, "__func__", convert)
        module = getattr(function, "__module__", None)
        if isinstance(module, str):
            names.append(module)
    roots: list[Path] = []
    for name in dict.fromkeys(names):
        root = _root_of(name)
        if root is not None and root not in roots:
            roots.append(root)
    return tuple(roots)


def _root_of(module_name: str) -> Path | None:
    if module_name == _PROTOCOL_MODULE:
        return None
    module = sys.modules.get(module_name)
    file = getattr(module, "__file__", None)
    if not file:
        return None  # builtins, or a module toolwire cannot see
    path = Path(file).resolve()
    if any(_inside(path, (root,)) for root in _toolwire_roots()):
        return path.parent  # a converter shipped inside toolwire: its own package
    top = sys.modules.get(module_name.partition(".")[0])
    top_file = getattr(top, "__file__", None)
    if top is not None and top_file and hasattr(top, "__path__"):
        return Path(top_file).resolve().parent  # the whole package it belongs to
    return path


@cache
def _toolwire_roots() -> tuple[Path, ...]:
    packages = (toolwire.harness, toolwire.conformance)
    return tuple(Path(package.__file__ or "").resolve().parent for package in packages)


@cache
def _stdlib_roots() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    found = (Path(paths[key]).resolve() for key in ("stdlib", "platstdlib") if key in paths)
    return tuple(dict.fromkeys(found))


def _not_ours(path: Path, adapter_roots: tuple[Path, ...]) -> bool:
    """Not toolwire's code (unless it is the adapter's) and not the standard library's."""
    resolved = path.resolve()
    if _inside(resolved, adapter_roots):
        return True
    if _inside(resolved, _toolwire_roots()):
        return False
    site = ("site-packages", "dist-packages")
    in_stdlib = _inside(resolved, _stdlib_roots()) and not any(p in resolved.parts for p in site)
    return not in_stdlib


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    resolved = path.resolve()
    return any(resolved == root or resolved.is_relative_to(root) for root in roots)


def display_path(path: Path) -> str:
    """The path from the ``sys.path`` entry it is imported from (``mypkg/conv.py``),
    else from the current folder, else as it is."""
    resolved = path.resolve()
    bases = []
    for entry in sys.path:
        try:
            bases.append(Path(entry or ".").resolve())
        except (OSError, RuntimeError):
            continue
    inside = [base for base in bases if resolved.is_relative_to(base)]
    if inside:
        return resolved.relative_to(max(inside, key=lambda base: len(base.parts))).as_posix()
    return resolved.as_posix()
