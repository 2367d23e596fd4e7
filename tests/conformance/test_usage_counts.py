"""fidelity.usage on cache reads and sentinels (issue 27): cache reads counted
once in each dialect's own way pass; counted twice, dropped, or a negative
count warns."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import anthropic_response, openai_response
from toolwire.conformance.fidelity.usage import check_usage

TEXT = [{"type": "text", "text": "Done."}]
MESSAGE = {"content": "Done."}


def _chat(dialect: str = "openai-chat", omit_usage: bool = False, **usage: Any) -> Any:
    counts = {"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105, **usage}
    return openai_response(MESSAGE, usage=counts, dialect=dialect, omit_usage=omit_usage)


def _anthropic(**usage: Any) -> Any:
    return anthropic_response(TEXT, usage={"input_tokens": 40, "output_tokens": 5, **usage})


def _messages(source: Any, output: Any) -> list[str]:
    found = check_usage(source, output)
    assert found is not None
    return [f.message for f in found]


def test_cache_reads_moved_out_of_the_input_count_toward_anthropic_pass() -> None:
    source = _chat(prompt_tokens_details={"cached_tokens": 60})
    assert _messages(source, _anthropic(cache_read_input_tokens=60)) == []


def test_glm_style_cache_reads_under_the_deepseek_dialect_are_read() -> None:
    source = _chat("deepseek-chat", prompt_tokens_details={"cached_tokens": 60})
    assert _messages(source, _anthropic(cache_read_input_tokens=60)) == []


def test_cache_writes_folded_into_the_input_count_pass() -> None:
    # Chat has no field for tokens written to the cache: 40 + 25 written come back as 65.
    source = _anthropic(cache_read_input_tokens=60, cache_creation_input_tokens=25)
    back = _anthropic(input_tokens=65, cache_read_input_tokens=60)
    assert _messages(source, back) == []


def test_cache_reads_counted_twice_warn() -> None:
    source = _chat(prompt_tokens_details={"cached_tokens": 60})
    (message,) = _messages(source, _anthropic(input_tokens=100, cache_read_input_tokens=60))
    assert "input_tokens is 100" in message


def test_cache_reads_dropped_warn_with_the_targets_field() -> None:
    source = _chat(prompt_tokens_details={"cached_tokens": 60})
    (message,) = _messages(source, _anthropic())
    assert "60 tokens read from the cache" in message and "cache_read_input_tokens" in message


def test_a_negative_count_warns_even_where_the_source_had_no_usage() -> None:
    source = _chat(omit_usage=True)
    (message,) = _messages(source, _anthropic(cache_creation_input_tokens=-1))
    assert "usage.cache_creation_input_tokens is -1" in message
    assert check_usage(source, _anthropic()) is None  # nothing to compare, nothing negative
