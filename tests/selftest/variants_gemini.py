"""Correct-but-different gemini outputs (tests/selftest/test_variants.py).

* ``GeminiSignatureUrlSafe``: every ``thoughtSignature`` written in base64url
  without padding: the same bytes (clients send signatures back so, and the
  API accepts it), so ``reasoning.call_signature_lost`` passes.
* ``GeminiExplicitIds``: every ``functionCall`` of a request given an id
  (``call_<turn>_<n>``) and its ``functionResponse`` the same id, where the
  reference pairs by name and order: pairing by id must pass too.
"""

from __future__ import annotations

import base64
from typing import Any

from harness.adapters.reference import DIRECTIONS
from tests.selftest.broken_base import Json, Triple
from tests.selftest.variants import VariantAdapter

GEMINI = "gemini"
TO_GEMINI = frozenset(d for d in DIRECTIONS if d[2] == GEMINI)


def _contents(output: Any, direction: Triple) -> list[Json]:
    if direction[0] == "stream":
        return [
            candidate.get("content") or {}
            for event in output
            if isinstance(event.get("data"), dict)
            for candidate in event["data"].get("candidates") or ()
        ]
    if direction[0] == "request":
        return list(output.get("contents") or ())
    return [c.get("content") or {} for c in output.get("candidates") or ()]


class GeminiSignatureUrlSafe(VariantAdapter):
    variation = "Gemini thoughtSignatures re-encoded as unpadded base64url (the same bytes)"
    varied = TO_GEMINI

    def vary(self, output: Any, direction: Triple) -> Any:
        for content in _contents(output, direction):
            for part in content.get("parts") or ():
                signature = part.get("thoughtSignature")
                if isinstance(signature, str):
                    raw = base64.b64decode(signature + "=" * (-len(signature) % 4))
                    part["thoughtSignature"] = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        return output


class GeminiExplicitIds(VariantAdapter):
    variation = "Gemini request calls and their responses given matching ids (call_<turn>_<n>)"
    varied = frozenset(d for d in TO_GEMINI if d[0] == "request")

    def vary(self, output: Any, direction: Triple) -> Any:
        pending: list[tuple[str, Any]] = []
        for turn, content in enumerate(output.get("contents") or ()):
            for part in content.get("parts") or ():
                call = part.get("functionCall")
                answer = part.get("functionResponse")
                if isinstance(call, dict) and "id" not in call:
                    call["id"] = f"call_{turn}_{len(pending)}"
                    pending.append((call["id"], call.get("name")))
                elif isinstance(answer, dict) and "id" not in answer:
                    match = next((p for p in pending if p[1] == answer.get("name")), None)
                    if match is not None:
                        pending.remove(match)
                        answer["id"] = match[0]
        return output
