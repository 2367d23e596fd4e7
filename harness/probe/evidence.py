"""What a step found: its status, the format and parser seen, why, what failed.

Statuses (docs/probe.md): ``pass`` the capability works as asked;
``partial`` it works with flaws (listed in ``failures``); ``fail`` it does
not work. Each step also yields the value of the profile field it decides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from toolwire.harness.probe.observe import Call, Observation
from toolwire.harness.probe.tools import ToolAnswer

Status = Literal["pass", "fail", "partial"]
STATUSES: tuple[Status, ...] = ("pass", "partial", "fail")

# How each format is named in reasons.
FORMAT_WORDS: Mapping[str, str] = {
    "anthropic": "Anthropic tool_use blocks",
    "openai": "OpenAI tool_calls",
    "gemini": "Gemini functionCall parts",
    "xml": "Qwen XML in the text content",
    "json-text": "JSON in the text content",
    "none": "prose, with no tool call",
}


# Each step: its key in the profile's evidence object, and the profile field
# it decides (the single-tool loop decides none: it is evidence for the others).
STEPS: Mapping[int, tuple[str, str | None]] = {
    1: ("basicFormat", "toolCallFormat"),
    2: ("schemaAdherence", "schemaLevel"),
    3: ("singleToolLoop", None),
    4: ("parallelCalls", "supportsParallelToolUse"),
    5: ("errorRepair", "errorRepair"),
    6: ("reasoningState", "requiresReasoningReplay"),
    7: ("streaming", "supportsStreamingToolUse"),
}


@dataclass(frozen=True)
class Evidence:
    """One step's evidence, as the profile publishes it."""

    step: int
    name: str  # the key in the profile's evidence object, e.g. "basicFormat"
    dimension: str | None  # the profile field it decides, if any
    status: Status
    reason: str
    format: str | None = None
    parser: str | None = None
    failures: tuple[str, ...] = ()
    requests: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "dimension": self.dimension,
            "status": self.status,
            "format": self.format,
            "parser": self.parser,
            "reason": self.reason,
            "failures": list(self.failures),
            "requests": self.requests,
        }


@dataclass(frozen=True)
class StepResult:
    evidence: Evidence
    value: Any  # the profile field's value this step decides (None if it decides none)


def step_result(
    step: int,
    value: Any,
    status: Status,
    reason: str,
    observation: Observation | None = None,
    failures: Sequence[str] = (),
    requests: int = 0,
) -> StepResult:
    """A step's result; format and parser are the observation's."""
    name, dimension = STEPS[step]
    evidence = Evidence(
        step=step,
        name=name,
        dimension=dimension,
        status=status,
        reason=reason,
        format=observation.format if observation is not None else None,
        parser=observation.parser if observation is not None else None,
        failures=tuple(failures),
        requests=requests,
    )
    return StepResult(evidence, value)


@dataclass(frozen=True)
class LoopPoint:
    """A conversation stopped after a tool call: where step 6 and 7 pick up."""

    request: dict[str, Any]
    observation: Observation
    answers: tuple[ToolAnswer, ...]


@dataclass
class Notes:
    """What steps hand to later steps."""

    basic_request: dict[str, Any] | None = None
    basic_format: str | None = None
    loop_request: dict[str, Any] | None = None
    # Every point where a call came back with reasoning (step 6 tests one).
    reasoning_points: list[LoopPoint] = field(default_factory=list)


def status_for(failures: Sequence[str]) -> Status:
    return "partial" if failures else "pass"


def mismatches(call: Call, asked: Mapping[str, Any]) -> list[str]:
    """Where the call's arguments differ from the values the prompt asked for."""
    arguments = call.arguments if isinstance(call.arguments, Mapping) else {}
    found = []
    for key, value in asked.items():
        if key not in arguments:
            found.append(f"{call.name} {key}: asked {_json(value)}, missing")
        elif arguments[key] != value or type(arguments[key]) is not type(value):
            found.append(f"{call.name} {key}: asked {_json(value)}, got {_json(arguments[key])}")
    return found


def call_names(calls: Sequence[Call]) -> str:
    return ", ".join(str(call.name) for call in calls) or "nothing"


def _json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else f"{text[:59]}…"
