"""Tool input cut off by the output token limit: what the official SDKs keep.

When a stream stops at ``max_tokens`` (anthropic-messages) or ``length``
(openai-chat) in the middle of a call, its argument fragments are the start
of a JSON object that never closed. The SDKs keep what was streamed:
anthropic-sdk-python's accumulator parses the joined fragments with
``jiter.from_json(..., partial_mode=True)`` after every delta
(src/anthropic/lib/streaming/_messages.py), so a cut call keeps the members
that were complete and drops a string still open. toolwire reads a cut call
the same way, with the same parser, instead of reporting no input at all.

Only a true prefix qualifies: text whose first JSON value never ends (a
complete value followed by more text is two values run together, a merged
call, and stays a violation), and that jiter can read as a prefix.
"""

from __future__ import annotations

import json
from typing import Any

from jiter import from_json

_DECODER = json.JSONDecoder()

# The stop reasons that mean "the output token limit was reached".
CUT_STOP_REASONS = frozenset({"max_tokens", "length"})


def cut_off_value(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``text`` is the start of one JSON value cut
    short, ``value`` being what anthropic-sdk-python keeps of it; else
    ``(False, None)``."""
    stripped = text.lstrip()
    if not stripped:
        return False, None
    try:
        _DECODER.raw_decode(stripped)
    except ValueError:
        pass
    else:
        return False, None  # the first value is complete: not a cut prefix
    try:
        return True, from_json(stripped.encode("utf-8"), partial_mode=True)
    except ValueError:
        return False, None
