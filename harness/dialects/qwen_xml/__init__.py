"""The ``qwen-xml`` dialect: Qwen3-Coder tool calls written as XML text.

Modules: ``tags`` (the markup's tags and how to find them in arriving text),
``parser`` (the incremental parser), ``calls`` (one call block judged
against the tool definitions), ``values`` (raw text to JSON values by JSON
Schema), ``schema`` (tool lookups), ``result`` (the parse's dataclasses and
issue codes), ``turns`` (assistant turns to and from the openai-chat shape)
and ``codec`` (the codec object).
"""

from __future__ import annotations

from toolwire.harness.dialects.qwen_xml.codec import QWEN_XML_CODEC, QwenXmlCodec
from toolwire.harness.dialects.qwen_xml.parser import QwenXmlParser, parse_qwen_xml
from toolwire.harness.dialects.qwen_xml.result import (
    ISSUE_CODES,
    CallSegment,
    IssueCode,
    QwenParse,
    QwenSegment,
    RejectedCall,
    TextSegment,
    XmlIssue,
)
from toolwire.harness.dialects.qwen_xml.turns import REJECTED_CALL, render_call_xml

__all__ = [
    "ISSUE_CODES",
    "QWEN_XML_CODEC",
    "REJECTED_CALL",
    "CallSegment",
    "IssueCode",
    "QwenParse",
    "QwenSegment",
    "QwenXmlCodec",
    "QwenXmlParser",
    "RejectedCall",
    "TextSegment",
    "XmlIssue",
    "parse_qwen_xml",
    "render_call_xml",
]
