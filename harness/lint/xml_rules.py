"""The xml rules on a Qwen3-Coder tool parser's output, with no adapter.

A server running Qwen3-Coder with a tool parser (vLLM or sglang with
``--tool-call-parser qwen3_coder``) answers in the openai-chat shape: the
text before the calls in ``content``, the calls in ``tool_calls``. The model
text the parser read is gone, but it can be rebuilt: each structured call in
the chat template's canonical markup (``render_call_xml``: strings raw, other
values as JSON), which is what the model writes, then the content as it came
(markup the parser missed is still in it). The calls come first so that they
pair with the served calls in order; where the content stood is not judged
(text after the calls is accepted text). Parsing that text with the
request's tools is the oracle; the served answer is judged as the output of
a conversion, by the same xml rules that judge an adapter:

* a well-formed call left in ``content`` is ``xml.call_not_parsed``;
* a value not typed by the tool's schema (``"3"`` for an integer) is
  ``xml.parameter_type`` (needs the tools: a cassette's request holds them);
* a call run with arguments no parser reads from the text is
  ``xml.malformed_executed``.

A qwen-xml answer with no structured calls is raw model text (the corpus
form), not a parser's output, unless the user says it is one
(``--parser-output``): then markup left in ``content`` is a missed call.
"""

from __future__ import annotations

from typing import Any

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.readings.xml_oracle import assistant_markup_text, is_markup_call
from toolwire.conformance.xml import CONVERSION_CHECKS
from toolwire.harness.dialects.qwen_xml import render_call_xml
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import OPENAI_CHAT, QWEN_XML, ToolCall, Turn
from toolwire.harness.payloads import parse_payload


def model_text(message: Turn) -> str:
    """The text a parser read to give ``message``: each structured call in
    canonical markup, then its content as served."""
    parts = []
    for block in message.blocks:
        if isinstance(block, ToolCall) and not is_markup_call(block):
            try:
                parts.append(render_call_xml(block) + "\n")
            except ToolwireError:
                continue  # arguments that are no object: xml.parameter_type says so
    return "".join(parts) + assistant_markup_text(message)


def parser_output_checks(
    payload: PayloadUnderTest, forced: bool = False
) -> list[tuple[str, Any]] | None:
    """(level, finding) for each xml rule broken by a served parser output;
    None when ``payload`` is no parser output (nothing to judge)."""
    if payload.dialect != QWEN_XML or payload.kind == "request" or payload.response is None:
        return None
    if not payload.response.choices:
        return None
    message = payload.response.message
    structured = [b for b in message.blocks if isinstance(b, ToolCall) and not is_markup_call(b)]
    if not structured and not forced:
        return None
    body = {
        "id": "toolwire-rebuilt",
        "object": "chat.completion",
        "model": "qwen3-coder",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": model_text(message)},
                "finish_reason": "stop",
            }
        ],
    }
    source = parse_payload(
        QWEN_XML, "response", body, payload.profile, payload.tools, "rebuilt model text"
    )
    output = parse_payload(
        OPENAI_CHAT, payload.kind, payload.raw, payload.profile, payload.tools, payload.label
    )
    conversion = ConversionUnderTest(source=source, output=output)
    judged = False
    found: list[tuple[str, Any]] = []
    for code, check in CONVERSION_CHECKS.items():
        level = RULES_BY_CODE[code].level_for(payload.profile)
        result = check(conversion)
        if level is None or result is None:
            continue
        judged = True
        found.extend((level, finding) for finding in result)
    return found if judged else None
