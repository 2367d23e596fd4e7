"""Fake credentials in the shapes of real ones, built at run time.

No key-like literal is written in the tests (the scanners would find them,
and a real key must never land in the repository): each is built from a
seed, so a test and an adapter it runs in another process make the same one.
"""

from __future__ import annotations

import random
import string

_ALPHABET = string.ascii_letters + string.digits


def _random(seed: str, length: int, alphabet: str = _ALPHABET) -> str:
    generator = random.Random(seed)
    text = "".join(generator.choice(alphabet) for _ in range(length - 2))
    return text + "7q"  # a digit and a letter, as every real key has


def anthropic_key(seed: str = "anthropic") -> str:
    """``sk-ant-api03-`` and 95 characters (https://docs.anthropic.com/en/api/overview)."""
    return "sk-" + "ant-api03-" + _random(seed, 93, _ALPHABET + "_-") + "AA"


def openai_project_key(seed: str = "openai") -> str:
    """``sk-proj-`` and 156 characters, as OpenAI's project keys."""
    return "sk-" + "proj-" + _random(seed, 156, _ALPHABET + "_-")


def azure_key(seed: str = "azure") -> str:
    """32 hexadecimal digits: no pattern can tell it from a hash."""
    return _random(seed, 30, "0123456789abcdef") + "9f"


def password(seed: str = "password") -> str:
    return "pw-" + _random(seed, 14)
