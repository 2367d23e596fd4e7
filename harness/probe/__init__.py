"""Capability probing: finds out whether a model at a live endpoint really calls tools.

``toolwire probe`` runs seven steps with three side-effect-free tools
against a live endpoint and writes a capability profile with its evidence
(docs/probe.md). Modules, one job each:

* ``tools``: the probe tools, their answers, argument checks (jsonschema);
* ``transport``: one POST per request, every exchange kept;
* ``observe`` and ``textcalls``: reading answers with the project's codecs,
  SSE parser and Qwen XML parser, and JSON in text;
* ``requests``: request bodies and how a conversation continues;
* ``session``: the run's state and conversations;
* ``steps``, ``loops``, ``reasoning``, ``streaming``: the seven steps;
* ``evidence``, ``profile``, ``schema``: what was found, the profile and
  its published JSON Schema;
* ``runner``: the steps in order; ``recording``: ``--record`` as corpus cases.

Pure: no click, no pytest.
"""

from __future__ import annotations

from toolwire.harness.probe.profile import PROBE_VERSION, CapabilityProfile
from toolwire.harness.probe.runner import ProbeOptions, ProbeRun, run_probe

__all__ = ["PROBE_VERSION", "CapabilityProfile", "ProbeOptions", "ProbeRun", "run_probe"]
