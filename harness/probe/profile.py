"""The capability profile: what the seven steps found, bound to where they ran.

A profile holds for one provider, model and endpoint (and, where known, one
chat template); it is refreshed when any of them changes, when
``probeVersion`` changes (other prompts or tools make other evidence), and
after a time-to-live for hosted models. ``as_json`` writes the published
document (``toolwire probe --schema`` prints its JSON Schema).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.harness import __version__
from toolwire.harness.probe.evidence import Evidence, StepResult

# Bump when the steps, prompts, tools or judgements change.
PROBE_VERSION = "1"


@dataclass(frozen=True)
class Binding:
    """Where the profile holds."""

    provider: str  # the endpoint's host (and port)
    model: str  # the model asked for
    endpoint: str  # the URL probed (no credentials)
    dialect: str
    served_model: str | None = None  # the model the answers named
    chat_template_hash: str | None = None  # unknown to a remote probe

    def as_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            "endpoint": self.endpoint,
            "dialect": self.dialect,
            "servedModel": self.served_model,
            "chatTemplateHash": self.chat_template_hash,
        }


@dataclass(frozen=True)
class CapabilityProfile:
    binding: Binding
    verified_at: datetime.datetime
    schema_level: str
    tool_call_format: str
    supports_parallel_tool_use: bool
    requires_reasoning_replay: bool
    supports_streaming_tool_use: bool
    error_repair: str
    evidence: tuple[Evidence, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "probeVersion": PROBE_VERSION,
            "toolwireVersion": __version__,
            "verifiedAt": _timestamp(self.verified_at),
            "binding": self.binding.as_json(),
            "schemaLevel": self.schema_level,
            "toolCallFormat": self.tool_call_format,
            "supportsParallelToolUse": self.supports_parallel_tool_use,
            "requiresReasoningReplay": self.requires_reasoning_replay,
            "supportsStreamingToolUse": self.supports_streaming_tool_use,
            "errorRepair": self.error_repair,
            "evidence": {item.name: item.as_json() for item in self.evidence},
        }


def build_profile(
    binding: Binding, verified_at: datetime.datetime, results: Sequence[StepResult]
) -> CapabilityProfile:
    """The profile from the step results (one per step, in any order)."""
    values: Mapping[str | None, Any] = {r.evidence.dimension: r.value for r in results}
    return CapabilityProfile(
        binding=binding,
        verified_at=verified_at,
        schema_level=values["schemaLevel"],
        tool_call_format=values["toolCallFormat"],
        supports_parallel_tool_use=bool(values["supportsParallelToolUse"]),
        requires_reasoning_replay=bool(values["requiresReasoningReplay"]),
        supports_streaming_tool_use=bool(values["supportsStreamingToolUse"]),
        error_repair=values["errorRepair"],
        evidence=tuple(sorted((r.evidence for r in results), key=lambda e: e.step)),
    )


def _timestamp(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
