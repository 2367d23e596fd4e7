"""Streaming the Qwen XML parser: any split of a text parses exactly like the
whole text; arbitrary text never raises and always reassembles; long values
stay fast."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dialects.test_qwen_samples import MALFORMED_TEXTS, TOOLS, VALID_TEXTS, call_xml
from toolwire.harness.dialects.qwen_xml import QwenParse, QwenXmlParser, parse_qwen_xml

ALL_TEXTS = {**VALID_TEXTS, **MALFORMED_TEXTS}


def parse_in_pieces(pieces: list[str]) -> QwenParse:
    parser = QwenXmlParser(TOOLS)
    for piece in pieces:
        parser.feed(piece)
    return parser.finish()


def chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize("name", sorted(ALL_TEXTS))
def test_every_fragment_size_gives_the_one_piece_parse(name: str) -> None:
    text = ALL_TEXTS[name]
    whole = parse_qwen_xml(text, TOOLS)
    assert whole.source == text
    for size in range(1, len(text) + 1):
        assert parse_in_pieces(chunks(text, size)) == whole, f"fragment size {size}"


@pytest.mark.parametrize(
    "pieces",
    [
        ["<tool_call>\n<function=get_weather>\n<para", "meter=city>\nOslo\n</para", "meter>\n"],
        ["<", "tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n<", "/parameter>"],
        ["Hi <tool_", "call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n"],
    ],
)
def test_splits_inside_tags(pieces: list[str]) -> None:
    text = "".join(pieces) + "</function>\n</tool_call>"
    whole = parse_qwen_xml(text, TOOLS)
    assert len(whole.calls) == 1
    assert parse_in_pieces([*pieces, "</function>\n</tool_call>"]) == whole


def test_empty_fragments_change_nothing() -> None:
    text = VALID_TEXTS["parallel"]
    pieces = [p for piece in chunks(text, 5) for p in ("", piece, "")]
    assert parse_in_pieces(pieces) == parse_qwen_xml(text, TOOLS)


def test_finish_is_idempotent_and_feed_after_finish_is_refused() -> None:
    parser = QwenXmlParser(TOOLS)
    parser.feed(VALID_TEXTS["simple"])
    first = parser.finish()
    assert parser.finish() is first
    with pytest.raises(RuntimeError, match="after finish"):
        parser.feed("more")


# Text built from pieces of the markup, so that random texts hit the parser's
# decisions (tag boundaries, broken tags, nesting) and not just plain prose.
_PIECES = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "<function=",
        "<function>",
        "</function>",
        "<parameter=",
        "<parameter>",
        "</parameter>",
        "get_weather",
        "city",
        "days",
        ">",
        "<",
        "=",
        "\n",
        " ",
        "3",
        "true",
        "{'a': 1}",
        "</para",
        "<tool_",
    ]
)
_TEXTS = st.lists(st.one_of(_PIECES, st.text(max_size=4)), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_TEXTS, with_tools=st.booleans())
def test_arbitrary_text_never_raises_and_reassembles_exactly(text: str, with_tools: bool) -> None:
    result = parse_qwen_xml(text, TOOLS if with_tools else None)
    assert result.source == text
    # Every call is either valid and issue-free or rejected with its issues.
    assert all(r.issues for r in result.rejected)
    rejected_issues = [i for r in result.rejected for i in r.issues]
    assert [i for i in result.issues if i.call_index is not None] == rejected_issues


@settings(max_examples=300, deadline=None)
@given(text=_TEXTS, cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_arbitrary_splits_give_the_one_piece_parse(text: str, cuts: list[int]) -> None:
    positions = sorted({min(c, len(text)) for c in cuts})
    pieces = [text[a:b] for a, b in zip([0, *positions], [*positions, len(text)], strict=True)]
    assert parse_in_pieces(pieces) == parse_qwen_xml(text, TOOLS)


@given(text=st.text(max_size=200))
def test_any_unicode_text_reassembles(text: str) -> None:
    assert parse_qwen_xml(text).source == text


def test_a_one_megabyte_value_parses_fast() -> None:
    value = "line with <tags> & x < y\n" * 42_000  # about 1 MB, many '<'
    text = "Writing.\n" + call_xml("write_file", ("path", "big.txt"), ("content", value))
    started = time.perf_counter()
    result = parse_qwen_xml(text, TOOLS)
    elapsed = time.perf_counter() - started
    assert result.calls[0].arguments["content"] == value
    assert elapsed < 0.5, f"one-piece parse of {len(text)} chars took {elapsed:.2f}s"

    started = time.perf_counter()
    streamed = parse_in_pieces(chunks(text, 4096))
    elapsed = time.perf_counter() - started
    assert streamed == result
    assert elapsed < 0.5, f"streamed parse of {len(text)} chars took {elapsed:.2f}s"


def test_streaming_cost_does_not_grow_with_what_came_before() -> None:
    # Linear time: feeding small fragments into a long value must not re-scan
    # the buffer; 200k one-to-three character fragments finish quickly.
    value = "abc<d " * 100_000
    text = call_xml("write_file", ("path", "p"), ("content", value))
    started = time.perf_counter()
    result = parse_in_pieces(chunks(text, 3))
    elapsed = time.perf_counter() - started
    assert result.calls[0].arguments["content"] == value
    assert elapsed < 5, f"{len(text) // 3} fragments took {elapsed:.2f}s"
