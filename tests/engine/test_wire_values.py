"""Payloads crossing the adapter boundary: private copies in, checked copies out."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from toolwire.harness.wire_values import (
    MAX_OUTPUT_CHARS,
    InputCopies,
    NotWireValue,
    checked_output_text,
    wire_text,
)

PAYLOAD: dict[str, Any] = {
    "model": "m",
    "messages": [{"role": "user", "content": "héllo \ud800"}],
    "n": [1, -0.0, 2.5, 10**30, True, None],
}


def test_each_copy_is_fresh_and_equal_to_what_parsing_the_json_would_give() -> None:
    copies = InputCopies()
    first, second = copies.copy(PAYLOAD), copies.copy(PAYLOAD)
    assert first == second == json.loads(wire_text(PAYLOAD))
    assert first is not second and first["messages"] is not second["messages"]
    first["messages"].clear()  # an adapter emptying its input
    assert copies.copy(PAYLOAD)["messages"] == PAYLOAD["messages"]
    assert math.copysign(1.0, copies.copy(PAYLOAD)["n"][1]) == -1.0


def test_a_value_that_is_not_plain_data_is_copied_as_json_would_copy_it() -> None:
    class Text(str):
        pass

    value = {"content": Text("x"), "pair": (1, 2)}
    copied = InputCopies().copy(value)
    assert copied == {"content": "x", "pair": [1, 2]}
    assert type(copied["content"]) is str


def test_the_size_is_that_of_compact_json_text() -> None:
    copies = InputCopies()
    assert copies.chars(PAYLOAD) == len(wire_text(PAYLOAD))


def test_an_output_given_back_is_copied_from_the_checked_copy() -> None:
    copies = InputCopies()
    output = {"content": [{"type": "text", "text": "hi"}]}
    kept = copies.copy_output(output)
    output["content"].clear()  # the adapter changes what it returned
    assert copies.copy(kept) == {"content": [{"type": "text", "text": "hi"}]}
    assert copies.chars(kept) == len(wire_text(kept))


def test_a_small_output_never_asks_the_size_of_its_input() -> None:
    def unasked() -> int:
        raise AssertionError("the input's size was asked for")

    assert checked_output_text({"a": 1}, unasked) == '{"a":1}'


def test_a_large_output_may_be_up_to_four_times_its_input() -> None:
    output = "x" * (MAX_OUTPUT_CHARS + 10)
    assert checked_output_text(output, lambda: MAX_OUTPUT_CHARS // 2) == json.dumps(output)
    with pytest.raises(NotWireValue, match=r"more than the 32\.0 MB an output may take"):
        checked_output_text(output, lambda: 1000)


def test_an_output_that_is_not_json_says_where() -> None:
    with pytest.raises(NotWireValue, match=r"\$\.n\[1\] is nan"):
        checked_output_text({"n": [1, float("nan")]})
