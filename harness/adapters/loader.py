"""Resolve an adapter spec to a checked adapter.

Spec forms (DESIGN.md): ``reference``; a name registered in the entry-point
group ``toolwire.adapters``; ``package.module:attribute``; ``http://HOST:PORT``
(an HTTP proxy, ``http_adapter.py``) and ``cmd:COMMAND`` (a converter in
another language, ``cmd/``). The attribute (or entry point) may
be an adapter object, a class, or a factory function taking no arguments.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
from importlib.metadata import entry_points
from pathlib import Path

from toolwire.harness.adapters.base import LoadedAdapter, check_adapter
from toolwire.harness.adapters.interrupts import watch_interrupts
from toolwire.harness.errors import AdapterLoadError
from toolwire.harness.redaction import redact

ENTRY_POINT_GROUP = "toolwire.adapters"

# Adapters that ship with toolwire itself, by name.
BUILTIN_ADAPTERS: dict[str, str] = {
    "reference": "toolwire.harness.adapters.reference:ReferenceAdapter",
}


def available_adapter_names() -> list[str]:
    names = set(BUILTIN_ADAPTERS)
    names.update(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return sorted(names)


def load_adapter(spec: str) -> LoadedAdapter:
    """Return the adapter named by ``spec`` or raise ``AdapterLoadError`` saying why."""
    spec = spec.strip()
    if not spec:
        raise AdapterLoadError("empty adapter spec", hint=_spec_forms())
    if spec.startswith(("http://", "https://")):
        from toolwire.harness.adapters.http_adapter import HttpProxyAdapter

        return check_adapter(HttpProxyAdapter(spec), spec)
    if spec.startswith("cmd:"):
        from toolwire.harness.adapters.cmd import CmdAdapter

        process = CmdAdapter.launch(spec.removeprefix("cmd:"))
        try:
            return check_adapter(process, spec)
        except AdapterLoadError:
            process.close()  # a declaration toolwire refuses: stop what it started
            raise
    if ":" in spec:
        return check_adapter(_instantiate(_import_target(spec), spec), spec)
    return _load_named(spec)


def _load_named(name: str) -> LoadedAdapter:
    if name in BUILTIN_ADAPTERS:
        return check_adapter(_instantiate(_import_target(BUILTIN_ADAPTERS[name]), name), name)
    for entry_point in entry_points(group=ENTRY_POINT_GROUP, name=name):
        with watch_interrupts() as watch:
            try:
                target = entry_point.load()
            except BaseException as error:  # a broken install: say which
                if watch.by_user(error):
                    raise
                raise AdapterLoadError(
                    f"adapter {name!r}: its entry point {entry_point.value!r} failed to load: "
                    f"{_describe(error)}",
                    hint="reinstall the package that provides it",
                ) from error
        return check_adapter(_instantiate(target, name), name)
    dotted = _dotted_spec_hint(name)
    if dotted is not None:
        raise AdapterLoadError(f"unknown adapter {name!r}", hint=dotted)
    known = available_adapter_names()
    close = difflib.get_close_matches(name, known, n=1)
    suggestion = f"did you mean {close[0]!r}? " if close else ""
    raise AdapterLoadError(
        f"unknown adapter {name!r}",
        hint=f"{suggestion}known adapters: {', '.join(known)}; or {_spec_forms()}",
    )


def _dotted_spec_hint(name: str) -> str | None:
    """``package.module.Class`` written for ``package.module:Class``: the
    spec that imports, when the part before the last dot is a module."""
    module_name, dot, attribute = name.rpartition(".")
    if not dot or not module_name or not attribute.isidentifier():
        return None
    try:  # finding it imports its parent packages, which may fail in any way
        found = importlib.util.find_spec(module_name)
    except (Exception, SystemExit):
        return None
    if found is None:
        return None
    return f"did you mean {module_name}:{attribute}? (a colon separates module and attribute)"


def _file_spec_hint(module_name: str, attribute_path: str) -> str | None:
    """``path/to/file.py:Class`` names a file; toolwire imports modules."""
    if not (module_name.endswith(".py") or "/" in module_name or "\\" in module_name):
        return None
    path = Path(module_name)
    dotted = ".".join(path.with_suffix("").parts) if path.suffix == ".py" else None
    hint = "an adapter spec names an importable module, not a file"
    if dotted and all(part.isidentifier() for part in dotted.split(".")):
        hint += (
            f": write {dotted}:{attribute_path}, run from the folder the path starts in "
            "or with that folder on PYTHONPATH"
        )
    return hint


def _import_target(spec: str) -> object:
    module_name, _, attribute_path = spec.partition(":")
    if not module_name or not attribute_path:
        raise AdapterLoadError(f"adapter spec {spec!r} is malformed", hint=_spec_forms())
    file_hint = _file_spec_hint(module_name, attribute_path)
    if file_hint is not None:
        raise AdapterLoadError(f"adapter {spec!r}: {module_name!r} is a file path", hint=file_hint)
    with watch_interrupts() as watch:
        try:
            target: object = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            raise AdapterLoadError(
                f"adapter {spec!r}: cannot import module {module_name!r} ({redact(str(error))})",
                hint="check the module name, install its package, or add its folder to PYTHONPATH",
            ) from error
        except BaseException as error:
            # SystemExit and KeyboardInterrupt too: a module that exits while
            # imported must not end the run with exit 0 (a pass) or a traceback.
            if watch.by_user(error):
                raise
            raise AdapterLoadError(
                f"adapter {spec!r}: importing {module_name!r} failed: {_describe(error)}"
            ) from error
    for part in attribute_path.split("."):
        if not hasattr(target, part):
            raise AdapterLoadError(
                f"adapter {spec!r}: module {module_name!r} has no attribute {attribute_path!r}",
                hint="check the name after the colon",
            )
        target = getattr(target, part)
    return target


def _instantiate(target: object, spec: str) -> object:
    """Classes and zero-argument factories are called; adapter objects are used as they are."""
    if hasattr(target, "convert") and not inspect.isclass(target):
        return target
    if callable(target):
        with watch_interrupts() as watch:
            try:
                return target()
            except AdapterLoadError:
                raise  # already one line naming the fix (e.g. "install toolwire[extra]")
            except BaseException as error:
                if watch.by_user(error):
                    raise
                raise AdapterLoadError(
                    f"adapter {spec!r}: creating it failed: {_describe(error)}"
                ) from error
    return target


def _describe(error: BaseException) -> str:
    """``Type: message``, redacted: an import error may quote a key."""
    try:
        text = str(error)
    except Exception:
        text = "(its message could not be printed)"
    return redact(f"{type(error).__name__}: {text}")


def _spec_forms() -> str:
    return (
        "an adapter spec is 'reference', an installed adapter name, "
        "'package.module:attribute', 'http://HOST:PORT' or 'cmd:COMMAND'"
    )
