"""The fidelity rules: what the model said, and the tools it was given, survive conversion.

Each rule is defined beside its check, in a module named for the rule or for
the reading several rules share; ``RULES`` lists them in page order."""

from __future__ import annotations

from toolwire.conformance.context import checks_of
from toolwire.conformance.fidelity import (
    arguments,
    empty_content,
    empty_text_added,
    error_flag,
    parameters,
    roundtrip,
    stop_reason,
    stop_reason_content,
    text,
    tool_choice,
    tool_definitions,
    usage,
)
from toolwire.conformance.rule import Rule

# The family's page opens with this (docs/rules/fidelity.md).
INTRO = "What the model said, and the tools it was given, survive conversion."
# Every module of the family that holds a definition or a check. The
# wrappers (pairwise.py) and the pieces several rules read (function_tools.py,
# result_names.py) hold neither.
MODULES = (
    arguments,
    text,
    error_flag,
    tool_definitions,
    tool_choice,
    parameters,
    stop_reason,
    stop_reason_content,
    empty_text_added,
    usage,
    empty_content,
    roundtrip,
)
# In the order of the catalogue and the rule pages.
RULES: tuple[Rule, ...] = (
    arguments.ARGUMENTS,
    text.TEXT,
    error_flag.ERROR_FLAG,
    tool_definitions.TOOL_DEFINITIONS,
    tool_choice.TOOL_CHOICE,
    parameters.PARAMETERS,
    stop_reason.STOP_REASON,
    stop_reason_content.STOP_REASON_CONTENT,
    empty_text_added.EMPTY_TEXT_ADDED,
    usage.USAGE,
    empty_content.EMPTY_CONTENT,
    roundtrip.ROUNDTRIP,
)
PAYLOAD_CHECKS, CONVERSION_CHECKS, ROUNDTRIP_CHECKS, REPLAY_CHECKS = checks_of(RULES, MODULES)
