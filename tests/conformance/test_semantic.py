"""The semantic view compares what twins say, up to documented separators."""

from __future__ import annotations

import pytest

from toolwire.conformance.readings.semantic import MessageSummary


def _summary(*texts: str) -> MessageSummary:
    return MessageSummary("assistant", texts, (), (), (), ())


@pytest.mark.parametrize("joined", ["ab", "a\nb", "a\n\nb"])
def test_text_blocks_joined_with_a_documented_separator_say_the_same(joined: str) -> None:
    assert _summary("a", "b") == _summary(joined)


@pytest.mark.parametrize("other", ["a b", "a\n\n\nb", "ba", "a"])
def test_other_differences_are_differences(other: str) -> None:
    assert _summary("a", "b") != _summary(other)


def test_summaries_are_not_hashable_since_equality_is_not_textual() -> None:
    with pytest.raises(TypeError):
        hash(_summary("a"))
