"""Dialect groups and per-profile level tables that several rule definitions share."""

from __future__ import annotations

from toolwire.conformance.rule import Level

# Every profile of the openai family, where a rule backed only by Anthropic's
# documentation is judged as a SHOULD.
SHOULD_ON_OPENAI_FAMILY: dict[str, Level | None] = {
    "openai": "SHOULD",
    "deepseek-thinking": "SHOULD",
    "deepseek": "SHOULD",
    "deepseek-reasoner-legacy": "SHOULD",
    "qwen3-coder": "SHOULD",
    "openai-responses": "SHOULD",
}
# MUST only where the server does not merge same-role messages (anthropic-strict).
STRICT_ONLY: dict[str, Level | None] = {
    "anthropic-strict": "MUST",
    "anthropic": "SHOULD",
    "anthropic-merging": "SHOULD",
}
# SHOULD only where the target merges consecutive same-role messages before it
# checks them (anthropic-merging); MUST on every other Anthropic-format target.
LENIENT_WHERE_MERGED: dict[str, Level | None] = {"anthropic-merging": "SHOULD"}

ANTHROPIC = "anthropic-messages"
OPENAI_FAMILY = frozenset({"openai-chat", "deepseek-chat", "qwen-xml"})
ANY_DIALECT: frozenset[str] = frozenset()
# Dialects whose calls carry ids; Qwen XML calls have none (results link by order).
ID_DIALECTS = frozenset({"openai-chat", "anthropic-messages", "deepseek-chat", "openai-responses"})
