"""The xml rules: Qwen3-Coder XML tool calls in text become structured calls, safely.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.rule import Rule
from toolwire.conformance.xml import markup_calls

# The family's page opens with this (docs/rules/xml.md).
INTRO = (
    "Qwen3-Coder XML tool calls in text become structured calls, safely. Where the "
    "real parsers (Qwen's own, vLLM, sglang, llama.cpp) split, any reading one of them "
    "gives is accepted: [xml-peers.md](xml-peers.md) says who does what."
)
# Every module of the family that holds a definition or a check.
MODULES = (markup_calls,)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    markup_calls.CALL_NOT_PARSED,
    markup_calls.PARAMETER_TYPE,
    markup_calls.TEXT_PRESERVED,
    markup_calls.CALL_ORDER,
    markup_calls.MALFORMED_EXECUTED,
    markup_calls.STREAM_EQUIVALENCE,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
