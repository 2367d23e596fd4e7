"""The ``gemini`` dialect (Gemini API generateContent).

Modules: ``parts`` (Part <-> block, Content <-> turn), ``results``
(functionResponse objects read as text), ``tools`` (functionDeclarations and
toolConfig), ``request``, ``response``, ``stream`` (SSE reassembly and
writing), ``codec`` (the ``DialectCodec``).
"""

from __future__ import annotations

from toolwire.harness.dialects.base import DialectCodec
from toolwire.harness.dialects.gemini.codec import GeminiCodec

GEMINI_CODEC: DialectCodec = GeminiCodec()

__all__ = ["GEMINI_CODEC", "GeminiCodec"]
