"""Broken adapters ("fauxmplementations"): the reference adapter with one defect each.

Every rule code of the catalogue has at least one adapter here that must
trigger it (``breaks``) and no other MUST rule (tests/selftest/test_broken_adapters.py).
The adapters live in ``broken_requests`` (conversation history),
``broken_reasoning`` (DeepSeek replay, Anthropic thinking) and
``broken_responses`` (responses, streams, Qwen XML) and ``broken_streams``
(chunk ids, call indices, stop reason against content) and
``broken_responses_api`` (the openai-responses event stream and reasoning
items). ``replay.assistant_altered`` is judged on a multi-request cassette by
``toolwire lint``, not on an adapter's output: its broken input is a
hand-altered cassette, built in the test.
"""

from __future__ import annotations

from tests.selftest import (
    broken_blind,
    broken_choices,
    broken_gemini,
    broken_parameters,
    broken_reasoning,
    broken_requests,
    broken_responses,
    broken_responses_api,
    broken_results,
    broken_streams,
    broken_usage,
    broken_vanish,
)
from tests.selftest.broken_base import BrokenAdapter

# Codes no adapter run can trigger, and how the self-test triggers them instead.
NOT_FROM_ADAPTERS = {
    "replay.assistant_altered": "replay scope: a hand-altered bundled cassette run through lint",
}


def _adapters() -> tuple[type[BrokenAdapter], ...]:
    found = []
    for module in (
        broken_requests,
        broken_reasoning,
        broken_responses,
        broken_responses_api,
        broken_vanish,
        broken_streams,
        broken_blind,
        broken_gemini,
        broken_choices,
        broken_parameters,
        broken_usage,
        broken_results,
    ):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BrokenAdapter)
                and value is not BrokenAdapter
                and value.__module__ == module.__name__
            ):
                found.append(value)
    return tuple(sorted(found, key=lambda adapter: adapter.name))


BROKEN_ADAPTERS: tuple[type[BrokenAdapter], ...] = _adapters()
