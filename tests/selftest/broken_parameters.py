"""Broken adapters whose generation settings go astray (fidelity.parameters, issue 27).

A converter that drops the client's stop sequences lets the model write past
them; one that writes an output-token limit the client never set cuts long
answers short; one that changes a sampling value answers under settings the
client did not choose. No API rejects any of them: each is a SHOULD warning.
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, Triple

GEMINI = "gemini"


class StopSequencesDropped(BrokenAdapter):
    breaks = "fidelity.parameters"
    defect = "leaves the client's stop sequences out of the anthropic request"
    damaged = frozenset({("request", OPENAI, ANTHROPIC)})
    shows_on = ("single-tool/settings-openai",)
    # The trip back to openai would show the loss again as fidelity.roundtrip.
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output.pop("stop_sequences", None)
        return output


class OutputLimitInvented(BrokenAdapter):
    breaks = "fidelity.parameters"
    defect = "writes maxOutputTokens 4096 into every gemini request that set no limit"
    damaged = frozenset({("request", OPENAI, GEMINI)})
    shows_on = ("single-tool/weather-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output.setdefault("generationConfig", {}).setdefault("maxOutputTokens", 4096)
        return output


class SamplingValueChanged(BrokenAdapter):
    breaks = "fidelity.parameters"
    defect = "replaces the client's temperature with its own default of 0.7"
    damaged = frozenset({("request", ANTHROPIC, OPENAI)})
    shows_on = ("single-tool/settings-anthropic",)
    # The trip openai -> anthropic -> openai would show it again as fidelity.roundtrip.
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if "temperature" in output:
            output["temperature"] = 0.7
        return output
