"""Broken adapters that lose a choice: a response's choice whose message is
empty, and a tool choice restricted to some of the tools (widened to every
tool, or forced where the source let the model answer in text).

any-llm and LiteLLM turn a Gemini candidate with no parts into an OpenAI
response with ``choices: []`` (i-am-bee/beeai-framework#959,
openai/openai-agents-python#1559). Where the source's stop reason has a
documented equivalent (an empty ``end_turn`` answer), the stop reason is lost
with the choice: ``fidelity.stop_reason`` fails it (docs/conventions.md,
"Stop reasons"). For a stop reason with no equivalent (Gemini
``MALFORMED_FUNCTION_CALL``) there is no verdict: tests/selftest/test_lost_choice.py.
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, Triple

GEMINI = "gemini"
RESPONSES_TO_OPENAI: frozenset[Triple] = frozenset(
    {("response", ANTHROPIC, OPENAI), ("response", GEMINI, OPENAI)}
)


def is_empty(choice: Any) -> bool:
    message = choice.get("message") or {}
    return not message.get("content") and not message.get("tool_calls")


class StopLostWithEmptyChoice(BrokenAdapter):
    breaks = "fidelity.stop_reason"
    defect = "drops a choice whose message is empty, answering with choices: []"
    damaged = RESPONSES_TO_OPENAI
    shows_on = ("edge/empty-reply-after-result-anthropic",)
    # The reference refuses to convert a response with no choice back.
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["choices"] = [c for c in output["choices"] if not is_empty(c)]
        return output


VALIDATED_CASE = "single-tool/tool-choice-validated-names-gemini"


class RestrictedChoiceWidened(BrokenAdapter):
    breaks = "fidelity.tool_choice"
    defect = (
        "writes Gemini's ANY (or VALIDATED) among some functions as tool_choice "
        "'required' (or 'auto'): any tool"
    )
    damaged = frozenset({("request", GEMINI, OPENAI)})
    shows_on = ("reasoning-replay/gemini25-tools-plus-output-gemini", VALIDATED_CASE)
    no_round_trip = True  # the trip back would carry the loss again

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choice = output.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
            output["tool_choice"] = choice["allowed_tools"]["mode"]
        return output


class ValidatedRestrictionForced(BrokenAdapter):
    """Reads every ``allowedFunctionNames`` as ANY's, as a converter that knows
    only ANY does: VALIDATED lets the model answer in text
    (https://ai.google.dev/api/caching#FunctionCallingConfig), the output
    forces a call."""

    breaks = "fidelity.tool_choice"
    defect = "writes Gemini's VALIDATED among some functions as allowed_tools mode 'required'"
    damaged = frozenset({("request", GEMINI, OPENAI)})
    shows_on = (VALIDATED_CASE,)
    no_round_trip = True  # the trip back would carry the forced call again

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choice = output.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
            choice["allowed_tools"]["mode"] = "required"
        return output
