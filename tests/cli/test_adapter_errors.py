"""Where an adapter raised (harness/engine/adapter_errors.py), the cases the
command tests do not reach: a wrapper with no frame of its own, an adapter
in another process, an exception with no traceback."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.engine.adapter_errors import describe_adapter_error, out_of_process, raised_at

LIBRARY = """\
def convert(payload, kind, source, target):
    raise ValueError("unsupported content")  # LIBRARY-RAISES
"""

WRAPPER = '''\
import functools

import thirdlib.core


class Wrapper:
    """No frame of its own: convert is the library's function, called from C."""

    name = "wrapper"
    version = "1"
    directions = [("request", "openai-chat", "openai-chat")]
    convert = functools.partial(thirdlib.core.convert)
'''


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "thirdlib").mkdir()
    (tmp_path / "thirdlib" / "__init__.py").write_text("")
    (tmp_path / "thirdlib" / "core.py").write_text(LIBRARY)
    (tmp_path / "wrapadapter.py").write_text(WRAPPER)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [n for n in sys.modules if n.split(".")[0] in ("thirdlib", "wrapadapter")]:
        del sys.modules[name]


def _raised(call: Any) -> BaseException:
    try:
        call()
    except Exception as error:
        return error
    raise AssertionError("it did not raise")


def test_a_wrapper_without_a_frame_of_its_own_gets_the_library_frame(modules: Path) -> None:
    adapter = importlib.import_module("wrapadapter").Wrapper()
    error = _raised(lambda: adapter.convert({}, "request", "openai-chat", "openai-chat"))
    lines = (modules / "thirdlib" / "core.py").read_text().splitlines()
    [line] = [n for n, text in enumerate(lines, 1) if "LIBRARY-RAISES" in text]
    assert raised_at(error, adapter) == f"thirdlib/core.py:{line} in convert"


def test_an_exception_never_raised_has_no_location() -> None:
    error = ValueError("made, not raised")
    assert raised_at(error, ReferenceAdapter()) is None
    assert describe_adapter_error(error, ReferenceAdapter()) == "ValueError: made, not raised"


def test_toolwires_own_frames_are_never_named() -> None:
    """The error comes from toolwire's payloads.py, called from here: the
    innermost frame outside toolwire (this test's) is named, not toolwire's."""
    from toolwire.harness.payloads import wire_to_events

    error = _raised(lambda: wire_to_events(42))
    found = raised_at(error, ReferenceAdapter())
    assert found is not None and found.startswith("tests/cli/test_adapter_errors.py:")
    assert found.endswith(" in <lambda>")


def test_cmd_and_http_adapters_run_elsewhere() -> None:
    from toolwire.harness.adapters.http_adapter import HttpProxyAdapter

    proxy = HttpProxyAdapter("http://127.0.0.1:9?front=openai-chat&back=openai-chat")
    assert out_of_process(proxy)
    assert not out_of_process(ReferenceAdapter())
    error = _raised(lambda: proxy.convert({}, "request", "openai-chat", "openai-chat"))
    assert raised_at(error, proxy) is None
