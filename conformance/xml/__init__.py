"""The xml rules: Qwen3-Coder XML tool calls in text become structured calls, safely.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.rule import Rule
from toolwire.conformance.xml import (
    call_not_parsed,
    call_order,
    malformed_executed,
    parameter_type,
    stream_equivalence,
    text_preserved,
)

# The family's page opens with this (docs/rules/xml.md).
INTRO = (
    "Qwen3-Coder XML tool calls in text become structured calls, safely. Where the "
    "real parsers (Qwen's own, vLLM, sglang, llama.cpp) split, any reading one of them "
    "gives is accepted: [xml-peers.md](xml-peers.md) says who does what."
)
# Every module of the family that holds a definition or a check; what several
# of them read is in markup_calls.py, which holds neither.
MODULES = (
    call_not_parsed,
    parameter_type,
    text_preserved,
    call_order,
    malformed_executed,
    stream_equivalence,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    call_not_parsed.CALL_NOT_PARSED,
    parameter_type.PARAMETER_TYPE,
    text_preserved.TEXT_PRESERVED,
    call_order.CALL_ORDER,
    malformed_executed.MALFORMED_EXECUTED,
    stream_equivalence.STREAM_EQUIVALENCE,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
