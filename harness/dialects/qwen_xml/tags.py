"""The tags of Qwen3-Coder tool-call markup and how to find them in text
that may still be arriving.

Every search either decides (a tag is here, or it is not) or says ``WAIT``
when the text ends in what may be the start of a tag (``<para``). No tag in
one set is a prefix of another, so a decision never depends on how much
text has arrived beyond the tag: that is what makes streaming parses equal
to one-piece parses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

TOOL_CALL_OPEN = "<tool_call>"
TOOL_CALL_CLOSE = "</tool_call>"
FUNCTION_OPEN = "<function="
FUNCTION_BARE = "<function>"
FUNCTION_CLOSE = "</function>"
PARAMETER_OPEN = "<parameter="
PARAMETER_BARE = "<parameter>"
PARAMETER_CLOSE = "</parameter>"

# Tags each state recognises; no tag in a set is a prefix of another.
OPEN_TAGS = (FUNCTION_OPEN, TOOL_CALL_CLOSE, TOOL_CALL_OPEN, FUNCTION_BARE)
BODY_TAGS: tuple[str, ...] = (PARAMETER_OPEN, FUNCTION_CLOSE, TOOL_CALL_CLOSE, TOOL_CALL_OPEN)
BODY_TAGS += (FUNCTION_OPEN, PARAMETER_CLOSE, PARAMETER_BARE)
TEXT_TAGS = (TOOL_CALL_OPEN, FUNCTION_OPEN)
VALUE_TAGS = (PARAMETER_CLOSE, PARAMETER_OPEN, FUNCTION_CLOSE, TOOL_CALL_CLOSE, TOOL_CALL_OPEN)
# Inside a literal <tool_call> block that is text of a value.
NESTED_TAGS = (TOOL_CALL_OPEN, TOOL_CALL_CLOSE)
SKIP_TAGS = (TOOL_CALL_CLOSE, TOOL_CALL_OPEN)
SKIP_TAGS_BARE = (TOOL_CALL_CLOSE, TOOL_CALL_OPEN, FUNCTION_CLOSE)

WHITESPACE = frozenset(" \t\r\n")
NAME_STOP = re.compile(r"[>\n\r<]")


class Wait:
    """The text so far may be the start of a tag: wait for more."""


WAIT = Wait()


def match_tag(text: str, at: int, tags: Sequence[str], final: bool) -> str | Wait | None:
    """The tag starting at ``at``; ``WAIT`` if undecidable yet.

    No tag in one set is a prefix of another, so the answer never depends on
    how much text has arrived beyond the tag.
    """
    for tag in tags:
        if text.startswith(tag, at):
            return tag
    if not final:
        rest = len(text) - at
        for tag in tags:
            if rest < len(tag) and tag.startswith(text[at:]):
                return WAIT
    return None


def scan(text: str, at: int, tags: tuple[str, ...], final: bool) -> tuple[int, str | None]:
    """Find the next of ``tags`` in free text (plain text, a value, skipped
    markup): ``(start, tag)``, or ``(end, None)`` when there is none, where
    ``end`` stops before a trailing possible tag prefix unless ``final``.
    The search runs in C (a regex), so long values cost little."""
    found = _pattern(tags).search(text, at)
    if found is not None:
        return found.start(), found.group()
    if final:
        return len(text), None
    longest = max(len(tag) for tag in tags)
    lt = text.find("<", max(at, len(text) - longest + 1))
    while lt >= 0:
        if any(tag.startswith(text[lt:]) for tag in tags):
            return lt, None
        lt = text.find("<", lt + 1)
    return len(text), None


@cache
def _pattern(tags: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(tag) for tag in tags))


def whitespace_end(text: str, at: int) -> int:
    end = at
    while end < len(text) and text[end] in WHITESPACE:
        end += 1
    return end
