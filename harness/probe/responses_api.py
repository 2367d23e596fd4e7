"""The probe's conversation in the Responses API (``openai-responses``).

The same conversation as the other dialects (harness/probe/requests.py),
written the way OpenAI documents it for ``POST /v1/responses``
(https://platform.openai.com/docs/guides/function-calling): the system prompt
as ``instructions``, the user prompt as a message item, the probe tools as
flat function tools. A conversation continues as the SDK examples do: the
model's output items go back unchanged (reasoning items included, so that
the ``fc_`` ids keep their reasoning: https://platform.openai.com/docs/guides/reasoning),
then one ``function_call_output`` per call. ``keep_reasoning=False`` leaves
the reasoning items out (step 6 does it on purpose: OpenAI then answers 400,
"function_call was provided without its required 'reasoning' item").
Calls written as text are answered in one user message of
``<tool_response>`` blocks, as for the other dialects.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from toolwire.harness.dialects import get_codec
from toolwire.harness.model import OPENAI_RESPONSES, Response
from toolwire.harness.probe.tools import ToolAnswer, openai_tools

_REPLAYED_ITEMS = ("message", "function_call", "reasoning")


def responses_tools() -> list[dict[str, Any]]:
    """The probe tools as flat Responses function tools."""
    return [{"type": "function", **tool["function"]} for tool in openai_tools()]


def first_request(model: str, system: str, prompt: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "instructions": system,
        "input": [{"role": "user", "content": prompt}],
        "tools": responses_tools(),
    }
    if stream:
        body["stream"] = True
    return body


def output_items(response: Response, keep_reasoning: bool) -> list[dict[str, Any]]:
    """The model's output items as the next request carries them."""
    rendered = get_codec(OPENAI_RESPONSES).render_response(response)
    items = []
    for item in rendered.get("output") or ():
        kind = item.get("type") if isinstance(item, dict) else None
        if kind not in _REPLAYED_ITEMS or (kind == "reasoning" and not keep_reasoning):
            continue
        items.append(item)
    return items


def continued(
    request: dict[str, Any],
    response: Response,
    structured: bool,
    call_ids: Sequence[str | None],
    answers: Sequence[ToolAnswer],
    text_results: str,
    keep_reasoning: bool,
) -> dict[str, Any]:
    body = copy.deepcopy(request)
    items: list[Any] = body["input"]
    items.extend(output_items(response, keep_reasoning))
    if not structured:
        items.append({"role": "user", "content": text_results})
        return body
    for call_id, answer in zip(call_ids, answers, strict=True):
        items.append({"type": "function_call_output", "call_id": call_id, "output": answer.content})
    return body
