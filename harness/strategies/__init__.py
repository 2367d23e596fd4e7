"""Hypothesis strategies that generate valid tool-calling traffic in every dialect.

Needs Hypothesis: install ``toolwire[fuzz]`` (``pip install 'toolwire[fuzz]'``).
``import toolwire.harness`` never imports it; only this package does.

For a converter's own property tests::

    from hypothesis import given
    from toolwire.harness.strategies import requests

    @given(requests("openai-chat"))
    def test_my_converter_keeps_every_call(body):
        converted = my_convert(body)
        ...

Every payload drawn is valid in its dialect: it parses with toolwire's
codecs and has no MUST violation under ``toolwire lint`` (tested). The mix
covers the corpus features: single and parallel calls, text before (and,
in anthropic-messages, after) calls, error results, multi-turn tool loops,
Anthropic thinking with signatures and redacted thinking, DeepSeek
``reasoning_content`` replay, Qwen XML calls in text, and streams cut into
pieces of arbitrary sizes.

* ``exchange_plans(dialect)``: the dialect-neutral plan of a request and its
  answer (``toolwire.harness.strategies.plan``), for tests that want to know what a
  payload says;
* ``requests(dialect)``, ``responses(dialect)``, ``streams(dialect)``: the
  JSON bodies (a stream in the adapter protocol's event-list form);
* ``exchanges(dialect)``: ``(plan, request, answer)`` triples, the answer a
  response or a stream as the plan says.
"""

from __future__ import annotations

from typing import Any

try:
    from hypothesis import strategies as st
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "toolwire.harness.strategies needs Hypothesis: pip install 'toolwire[fuzz]'"
    ) from error

from toolwire.harness.model import DIALECTS
from toolwire.harness.strategies.draw import exchange_plans
from toolwire.harness.strategies.plan import ExchangePlan
from toolwire.harness.strategies.render import render_request, render_response, render_stream


def requests(dialect: str, **options: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Request bodies in ``dialect`` (``options`` as for ``exchange_plans``)."""
    return exchange_plans(dialect, **options).map(render_request)


def responses(dialect: str, **options: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Non-streamed response bodies in ``dialect``."""
    return exchange_plans(dialect, **{**options, "stream": False}).map(render_response)


def streams(dialect: str, **options: Any) -> st.SearchStrategy[list[dict[str, Any]]]:
    """Streamed responses in ``dialect``: lists of ``{"event", "data"}``."""
    return exchange_plans(dialect, **{**options, "stream": True}).map(render_stream)


def exchanges(dialect: str, **options: Any) -> st.SearchStrategy[tuple[ExchangePlan, Any, Any]]:
    """``(plan, request body, response body or stream events)``."""
    return exchange_plans(dialect, **options).map(_exchange)


def _exchange(plan: ExchangePlan) -> tuple[ExchangePlan, Any, Any]:
    answer: Any = render_stream(plan) if plan.stream else render_response(plan)
    return plan, render_request(plan), answer


__all__ = [
    "DIALECTS",
    "ExchangePlan",
    "exchange_plans",
    "exchanges",
    "requests",
    "responses",
    "streams",
]
