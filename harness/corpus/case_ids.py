"""Readable case ids: ``folder/slug``, made from words of the recording.

A slug is lower-case words joined by '-', cut after a whole word at 60
characters. When two recordings would take one id, the second gets the
first word (dialect, model, tool name) that tells them apart, then a short
digest of the recording, never a bare number (``toolwire corpus add``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_SLUG_LIMIT = 60


def slugify(text: str) -> str:
    """Lower-case words joined by '-', as ids want ('' when nothing is left).

    A long slug is cut after a whole word, never inside one.
    """
    return _cut_at_word(re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-"), _SLUG_LIMIT)


def _cut_at_word(slug: str, limit: int) -> str:
    """At most ``limit`` characters, ending at a word's end where there is one."""
    if len(slug) <= limit:
        return slug
    cut = slug[: limit + 1]
    word_end = cut.rfind("-")
    return (cut[:word_end] if word_end > 0 else slug[:limit]).rstrip("-")


def unique_id(folder: str, slug: str, taken: Callable[[str], bool]) -> str:
    """``folder/slug``, or ``folder/slug-2``, ``-3``… when taken."""
    base = f"{folder}/{slug or 'case'}"
    candidate, number = base, 2
    while taken(candidate):
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def readable_id(
    folder: str, slug: str, words: Sequence[str], taken: Callable[[str], bool], fallback: str
) -> str:
    """``folder/slug``; when another recording holds it, the slug with the first
    of ``words`` (dialect, model, tool name) that tells the two apart, then
    ``fallback`` (a short digest of the recording), never a bare number."""
    slug = slug or "case"
    candidates = [slug]
    extra = ""
    for word in (*words, fallback):
        piece = slugify(word)
        if not piece or piece in slug.split("-") or piece in extra:
            continue
        extra = f"{extra}-{piece}" if extra else piece
        candidates += [_joined(slug, piece), _joined(slug, extra)]
    for candidate in dict.fromkeys(candidates):
        if not taken(f"{folder}/{candidate}"):
            return f"{folder}/{candidate}"
    return unique_id(folder, _joined(slug, slugify(fallback)), taken)


def _joined(slug: str, suffix: str) -> str:
    """``slug-suffix`` within the slug limit, the slug cut at a word."""
    head = _cut_at_word(slug, max(_SLUG_LIMIT - len(suffix) - 1, 0))
    return f"{head}-{suffix}" if head else suffix
