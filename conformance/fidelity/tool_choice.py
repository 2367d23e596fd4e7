"""fidelity.tool_choice: the tool choice and the parallel-call setting keep their meaning.

fidelity.tool_choice compares the neutral mode (Anthropic ``any`` is OpenAI
``required``), the named tool, the tools a restricted choice lets the model
call (OpenAI ``allowed_tools``; Gemini ``allowedFunctionNames`` beside ANY,
which is ``required`` among them, or VALIDATED, which is ``auto`` among them:
``toolwire.conformance.readings.allowed_tools``; ``required`` among one tool is that
tool, a restriction to every offered tool is none), and whether parallel calls are allowed
(OpenAI ``parallel_tool_calls``, Anthropic
``tool_choice.disable_parallel_tool_use``); unset means the documented
default (``auto`` when tools are offered; parallel calls allowed).
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, PayloadUnderTest, RoundTripCheck
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.fidelity.function_tools import function_tools
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.allowed_tools import (
    Restriction,
    allowed_finding,
    as_plain,
    offered,
    restriction,
)
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, GEMINI_FUNCTION_CALLING, OPENAI_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation

TOOL_CHOICE = rule(
    "fidelity.tool_choice",
    "MUST",
    "conversion roundtrip",
    "tool_choice and the parallel-call setting keep their meaning in the target dialect.",
    OPENAI_DOCS,
    ANTHROPIC_TOOLS,
    evidence=(
        means(OPENAI_DOCS, "tool_choice none/auto/required/named and parallel_tool_calls"),
        means(ANTHROPIC_TOOLS, "tool_choice auto/any/tool/none and disable_parallel_tool_use"),
        means(OPENAI_DOCS, "tool_choice allowed_tools: the tools the model may call"),
        means(GEMINI_FUNCTION_CALLING, "functionCallingConfig mode and allowedFunctionNames"),
    ),
    fix=(
        "Translate tool_choice by meaning: auto<->auto, required<->any, a named function "
        "<->`{type: tool, name}`, none<->none; `parallel_tool_calls: false` <-> "
        "`disable_parallel_tool_use: true`. Set no restriction the source did not have. A "
        "choice restricted to some tools (OpenAI `allowed_tools`; Gemini "
        "`allowedFunctionNames` with ANY, i.e. required, or VALIDATED, i.e. auto) keeps its "
        "tools and its mode, or is declined where the target cannot say it."
    ),
)


def _effective_choice(conversation: Conversation) -> tuple[str, str | None, bool] | None:
    """(mode, tool name, parallel allowed); None when the choice is a value
    the neutral model does not read (it stays in ``extra``). A restriction
    reads as its mode (``allowed_finding`` compares which tools it allows)."""
    choice = conversation.tool_choice
    kept = restriction(conversation)
    if kept is not None:
        mode, name = _restricted_mode(kept, offered(conversation))
    elif choice is None and "tool_choice" in conversation.extra:
        return None
    elif choice is None:
        mode, name = ("auto" if function_tools(conversation) else "none"), None
    else:
        mode, name = choice.mode, choice.name
    parallel = conversation.parallel_tool_calls is not False
    return mode, name, parallel


def _restricted_mode(kept: Restriction, tools: frozenset[str]) -> tuple[str, str | None]:
    # "required" among one tool forces that tool, as a named choice does
    # (the reference reduces a restriction with the same as_plain).
    plain = as_plain(kept, tools)
    return (kept.mode, None) if plain is None else (plain.mode, plain.name)


def check_tool_choice(source: PayloadUnderTest, output: PayloadUnderTest) -> list[Finding] | None:
    before, after = source.conversation, output.conversation
    if before is None or after is None:
        return None
    said = before.tool_choice is not None or before.parallel_tool_calls is not None
    if not said and not function_tools(before):
        return None  # no tools and no choice: nothing to keep
    expected, actual = _effective_choice(before), _effective_choice(after)
    if expected is None or actual is None:
        return None  # a choice outside the documented set: nothing to compare with
    found = []
    if expected[:2] == actual[:2]:
        narrowed = allowed_finding(before, after, expected[0])
        found.extend([narrowed] if narrowed is not None else [])
    else:
        found.append(
            finding(
                "fidelity.tool_choice",
                f"tool_choice was {_describe(expected)} in the source, but the output says "
                f"{_describe(actual)}",
                "tool_choice",
                expected=_describe(expected),
                actual=_describe(actual),
            )
        )
    if expected[2] != actual[2] and "none" not in (expected[0], actual[0]):
        where = (
            "parallel_tool_calls"
            if output.dialect != ANTHROPIC_MESSAGES
            else ("tool_choice.disable_parallel_tool_use")
        )
        state = "allowed" if expected[2] else "disabled"
        # Unset means the documented default (parallel calls allowed): say so,
        # rather than show a value the output never wrote.
        output_says = _describe_parallel(after.parallel_tool_calls, output.dialect)
        found.append(
            finding(
                "fidelity.tool_choice",
                f"parallel tool calls were {state} in the source, but not in the output "
                f"({where} {output_says})",
                where,
                expected="disabled" if not expected[2] else "allowed",
                actual=f"allowed ({where} {output_says})" if actual[2] else "disabled",
            )
        )
    return found


def _describe_parallel(value: bool | None, dialect: str) -> str:
    if value is None:
        return "is absent, and the default allows them"
    if dialect == ANTHROPIC_MESSAGES:
        return f"is {'false' if value else 'true'}"
    return f"is {'true' if value else 'false'}"


def _describe(choice: tuple[str, str | None, bool]) -> str:
    mode, name, _ = choice
    return f"{mode} {name!r}" if name else mode


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.tool_choice": pairwise.conversion(check_tool_choice),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "fidelity.tool_choice": pairwise.roundtrip(check_tool_choice),
}
