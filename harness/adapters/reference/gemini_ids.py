"""Call ids and thought signatures across the Gemini hop (docs/conventions.md,
"Gemini ids and thought signatures").

Gemini calls need not carry an ``id`` (results pair by name and order), and a
``functionCall`` part may carry a ``thoughtSignature`` that Gemini 3 refuses
to miss when the call is sent back
(https://ai.google.dev/gemini-api/docs/thought-signatures). Chat Completions
and Anthropic Messages have neither, but every client sends a call's id back
unchanged, so the id carries both:

* a call without an id gets ``gm_<turn>_<n>`` in a request (the position of
  the call in the conversation: the same history gives the same ids on every
  request) and ``gm_<responseId>_<n>`` in a response (unique across the
  conversation); ``from_gemini``'s caller writes it on the call and on the
  result that answers it (by name and order);
* a signature is appended as ``__thought__<signature>`` (the form LiteLLM
  uses). Anthropic ids then need the reversible ``twid_`` encoding
  (``ids.py``), since base64 has ``+``, ``/`` and ``=``.

``split_id`` reads such an id back: a ``gm_`` id becomes no id (Gemini
never had one) and the signature returns to the call.
"""

from __future__ import annotations

import re

from toolwire.conformance.readings.conventions import (
    GEMINI_GENERATED_ID_PREFIX as GENERATED_PREFIX,
)
from toolwire.conformance.readings.conventions import (
    GEMINI_SIGNATURE_SEPARATOR as SIGNATURE_SEPARATOR,
)
from toolwire.conformance.readings.conventions import split_gemini_id as split_id

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def generated_id(scope: str, number: int) -> str:
    return f"{GENERATED_PREFIX}{_UNSAFE.sub('_', scope)}_{number}"


def join_id(call_id: str, signature: str | None) -> str:
    return call_id if not signature else f"{call_id}{SIGNATURE_SEPARATOR}{signature}"


__all__ = ["GENERATED_PREFIX", "SIGNATURE_SEPARATOR", "generated_id", "join_id", "split_id"]
