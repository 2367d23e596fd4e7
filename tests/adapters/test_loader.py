from __future__ import annotations

import pytest

import toolwire.harness
from toolwire.harness.adapters.base import Direction
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.errors import AdapterLoadError

SAMPLES = "tests.adapters.sample_adapters"


@pytest.mark.parametrize("attribute", ["ECHO", "EchoAdapter", "make_echo"])
def test_module_attribute_spec_accepts_instance_class_and_factory(attribute: str) -> None:
    adapter = load_adapter(f"{SAMPLES}:{attribute}")
    assert adapter.name == "echo"
    assert adapter.version == "1.0"
    direction = Direction("request", "openai-chat", "openai-chat")
    assert adapter.directions == frozenset({direction})
    assert adapter.supports(direction)
    assert not adapter.supports(Direction("response", "openai-chat", "openai-chat"))
    assert adapter.convert_direction({"a": 1}, direction) == {"a": 1}


def test_public_entry_point_is_harness_load_adapter() -> None:
    adapter = toolwire.harness.load_adapter(f"{SAMPLES}:ECHO")
    assert adapter.spec == f"{SAMPLES}:ECHO"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("does.not:exist", "cannot import module 'does.not'"),
        (f"{SAMPLES}:Nope", "has no attribute 'Nope'"),
        (f"{SAMPLES}:NoDirections", "declares no directions"),
        (f"{SAMPLES}:UnknownDialect", "unknown dialect 'mistral-chat'"),
        (f"{SAMPLES}:UnknownKind", "unknown kind 'batch'"),
        (f"{SAMPLES}:MissingConvert", "lacks convert"),
        (f"{SAMPLES}:RaisesOnInit", "creating it failed: RuntimeError: needs an API key"),
        (f"{SAMPLES}:ExitsOnInit", "creating it failed: SystemExit: 0"),
        ("tests.adapters.exits_on_import:Anything", "failed: SystemExit: 0"),
        (f"{SAMPLES}:NOT_AN_ADAPTER", "is not an adapter"),
        ("refrence", "unknown adapter 'refrence'"),
        ("", "empty adapter spec"),
        (":x", "malformed"),
        ("http://example.com:9", "must listen on 127.0.0.1"),
        ("cmd:/nonexistent/adapter --x", "cannot start '/nonexistent/adapter'"),
    ],
)
def test_bad_specs_give_one_clear_error(spec: str, expected: str) -> None:
    with pytest.raises(AdapterLoadError) as caught:
        load_adapter(spec)
    message = str(caught.value)
    assert expected in message
    assert "\n" not in message


def test_unknown_name_suggests_the_closest_known_adapter() -> None:
    with pytest.raises(AdapterLoadError, match="did you mean 'reference'"):
        load_adapter("refrence")
