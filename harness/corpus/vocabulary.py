"""The closed vocabularies of the corpus format (docs/corpus-format.md).

A value outside these lists is an error that names the valid ones and the
closest match, so a typo never silently turns a case into something else.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from toolwire.conformance.profiles import PROFILES as PROFILE_DEFINITIONS
from toolwire.harness.dialects.qwen_xml.result import ISSUE_CODES

# The vcrpy cassette format toolwire reads (vcrpy has written version 1 since 1.0).
CASSETTE_VERSION = 1
# The version of the `toolwire:` metadata block.
METADATA_FORMAT = 1

FEATURES: tuple[str, ...] = (
    "single-tool",
    "parallel",
    "mixed-text",
    "error-result",
    "reasoning-replay",
    "thinking",
    "qwen-xml",
    "streaming",
    "multi-turn",
    "empty-content",
    "unicode",
    "large-arguments",
    "nested-arguments",
    "long-conversation",
    "limits",
    "server-tools",
    "negative",
)
NEGATIVE_FEATURE = "negative"

# The profiles a case may assume: the catalogue's, one source of truth.
PROFILES: tuple[str, ...] = tuple(PROFILE_DEFINITIONS)

PROVENANCE_KINDS: tuple[str, ...] = ("recorded", "documented", "reported")
# The keys each provenance kind requires (besides `kind`); no others are allowed.
PROVENANCE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "recorded": ("endpoint", "model", "date", "recorder"),
    "documented": ("url",),
    "reported": ("url",),
}

# Header names (lower-case) that carry credentials or account identity.
FORBIDDEN_HEADERS: frozenset[str] = frozenset(
    {
        "authorization",
        "x-api-key",
        "api-key",
        "cookie",
        "set-cookie",
        "openai-organization",
        "openai-project",
        "anthropic-organization-id",
        "x-goog-api-key",
    }
)

# Issue codes a Qwen3-Coder XML parser reports for malformed tool-call text
# (defined by toolwire.harness.dialects.qwen_xml; the format document lists them too).
XML_ISSUE_CODES: tuple[str, ...] = ISSUE_CODES

TOOLWIRE_REQUIRED_KEYS: tuple[str, ...] = (
    "format",
    "id",
    "description",
    "features",
    "dialect",
    "profile",
    "provenance",
)
TOOLWIRE_OPTIONAL_KEYS: tuple[str, ...] = ("twins", "expect")
EXPECT_KEYS: tuple[str, ...] = ("violations", "tool_calls", "text", "xml_issues")
TOP_LEVEL_KEYS: tuple[str, ...] = ("version", "toolwire", "interactions")

# Lower-case slug segments joined by "/".
ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*$"
# Rule codes are `family.name`: lower-case words joined by underscores.
RULE_CODE_PATTERN = r"^[a-z][a-z0-9]*(_[a-z0-9]+)*\.[a-z][a-z0-9]*(_[a-z0-9]+)*$"

# Case files end in `.yaml`; `.yml` is read too (and flagged by validate,
# because only `.yaml` ships in the package).
CASE_SUFFIXES: tuple[str, ...] = (".yaml", ".yml")
PREFERRED_SUFFIX = ".yaml"


def closest(value: str, options: Iterable[str], count: int = 1) -> list[str]:
    """The options most similar to ``value`` (difflib, ignoring case), best first."""
    by_lower = {option.lower(): option for option in options}
    matches = difflib.get_close_matches(value.lower(), list(by_lower), n=count, cutoff=0.6)
    return [by_lower[match] for match in matches]


def unknown_value_hint(value: str, valid: Iterable[str]) -> str:
    """'did you mean X? valid: a, b, c' for an error about an unknown value."""
    options = list(valid)
    listing = f"valid: {', '.join(options)}"
    best = closest(value, options)
    return f"did you mean {best[0]!r}? {listing}" if best else listing
