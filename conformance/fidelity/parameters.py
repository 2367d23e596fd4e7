"""fidelity.parameters: the generation settings a request sets keep their values.

Judged where the target has a field for the setting
(``toolwire.conformance.readings.generation_parameters``): stop sequences,
the output-token limit, structured output, the reasoning effort and the seed
are carried with their values, and no setting is invented that the source
did not set (beyond what the target requires: Anthropic's ``max_tokens``).

Sampling values (temperature, top_p, top_k) are judged only when carried:
a converter may have to drop them, since several models reject them (OpenAI's
reasoning models answer "Unsupported parameter: 'top_p' is not supported with
this model"; Anthropic's extended thinking is not compatible with temperature
or top_k). A value carried must be the source's, or the source's brought into
the target's documented range (Anthropic's temperature is 0..1, Chat's 0..2),
and a value invented must be the documented default (1), which changes
nothing. SHOULD: no API rejects a dropped setting; the model then answers
under other settings than the client chose.
"""

from __future__ import annotations

from typing import Any

from toolwire.conformance.context import ConversionCheck, PayloadUnderTest
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.generation_parameters import (
    REQUIRED,
    Parameter,
    equivalent,
    field_name,
    parameters,
)
from toolwire.conformance.readings.json_values import json_equal
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import (
    ANTHROPIC_DOCS,
    GEMINI_GENERATION_CONFIG,
    OPENAI_DOCS,
    RESPONSES_DOCS,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES

PARAMETERS = rule(
    "fidelity.parameters",
    "SHOULD",
    "conversion",
    "The generation settings a request sets (stop sequences, output-token limit, structured "
    "output, reasoning effort, seed, sampling values carried) keep their values where the "
    "target has a field for them, and none is invented.",
    OPENAI_DOCS,
    RESPONSES_DOCS,
    ANTHROPIC_DOCS,
    GEMINI_GENERATION_CONFIG,
    fix=(
        "Map each setting to the target's own field (stop <-> stop_sequences <-> "
        "generationConfig.stopSequences; max_completion_tokens <-> max_tokens <-> "
        "max_output_tokens <-> maxOutputTokens; response_format <-> text.format <-> "
        "responseMimeType with responseJsonSchema; reasoning_effort <-> reasoning.effort), "
        "or decline the conversion where the target model cannot take it; write no setting "
        "the source did not set unless the target requires it."
    ),
)

SAMPLING = frozenset({"temperature", "top_p", "top_k"})
# The documented defaults of the sampling values: writing one changes nothing.
SAMPLING_DEFAULTS = {"temperature": 1, "top_p": 1}
# Anthropic's temperature range (Chat's and Gemini's is 0..2).
ANTHROPIC_MAX_TEMPERATURE = 1


def check_parameters(source: PayloadUnderTest, output: PayloadUnderTest) -> list[Finding] | None:
    before, after = source.conversation, output.conversation
    if before is None or after is None:
        return None
    given = parameters(before, source.raw)
    written = parameters(after, output.raw)
    judged = [name for name in given if equivalent(output.dialect, name)]
    invented = [
        name
        for name in written
        if name not in given and name not in REQUIRED.get(output.dialect, frozenset())
    ]
    if not judged and not invented:
        return None  # no setting the target could say, none written: nothing to judge
    found = []
    for name in judged:
        problem = _kept(name, given[name], written.get(name), output.dialect)
        if problem is not None:
            found.append(problem)
    for name in invented:
        if name in SAMPLING and SAMPLING_DEFAULTS.get(name) == written[name].value:
            continue
        found.append(
            finding(
                "fidelity.parameters",
                f"the output sets {written[name].path} to {written[name].value!r}, which the "
                "source did not set: the model answers under a setting the client did not choose",
                written[name].path,
                expected=None,
                actual=written[name].value,
            )
        )
    return found


def _kept(name: str, given: Parameter, written: Parameter | None, target: str) -> Finding | None:
    if written is None:
        if name in SAMPLING:
            return None  # dropping a sampling value can be required (module docstring)
        return finding(
            "fidelity.parameters",
            f"the source sets {given.path} to {given.value!r}; the output has no "
            f"{field_name(target, name)}, so the model answers without it",
            field_name(target, name),
            expected=given.value,
            actual=None,
        )
    if _same(name, given.value, written.value, target):
        return None
    return finding(
        "fidelity.parameters",
        f"the source sets {given.path} to {given.value!r}; the output sets {written.path} "
        f"to {written.value!r}",
        written.path,
        expected=given.value,
        actual=written.value,
    )


def _same(name: str, given: Any, written: Any, target: str) -> bool:
    if name == "structured_output":
        # Gemini's responseSchema (an OpenAPI subset) is compared by kind only.
        return bool(
            given[0] == written[0]
            and (None in (given[1], written[1]) or json_equal(given[1], written[1]))
        )
    if name == "temperature" and target == ANTHROPIC_MESSAGES and _number(given):
        return bool(
            json_equal(min(given, ANTHROPIC_MAX_TEMPERATURE), written) or json_equal(given, written)
        )
    return bool(json_equal(given, written))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    PARAMETERS.code: pairwise.conversion(check_parameters)
}
