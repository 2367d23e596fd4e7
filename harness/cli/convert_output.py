"""How `toolwire convert` prints the calls it heard: text for people, JSON for scripts.

Every string that leaves here went through ``redact``: payloads come from the
corpus (scrubbed when recorded), but what an adapter returns or raises may
echo a key from its environment.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from collections.abc import Sequence
from typing import Any

from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.corpus.case import Case
from toolwire.harness.engine.adapter_errors import out_of_process
from toolwire.harness.engine.calls import AdapterCall
from toolwire.harness.engine.verdicts import UNSUPPORTED, Verdict
from toolwire.harness.redaction import redact

RULE = "─" * 3
# How a cmd: adapter's failures read, by the exception toolwire raised for them.
_PROCESS_ERRORS = {
    "AdapterReportedError: ": "the adapter process answered with an error: ",
    "AdapterProcessError: ": "the adapter process failed: ",
    "ProtocolError: ": "the adapter process broke the protocol: ",
}


def render_json(
    case: Case, adapter: LoadedAdapter, calls: Sequence[AdapterCall], verdicts: Sequence[Verdict]
) -> str:
    document = {
        "case": case.id,
        "dialect": case.dialect,
        "adapter": {"spec": adapter.spec, "name": adapter.name, "version": adapter.version},
        "calls": [
            {
                "where": call.where,
                "interaction": call.interaction,
                "kind": call.kind,
                "source": call.source,
                "target": call.target,
                "exchange": call.exchange,
                "payload": call.payload,
                "request": call.request,
                "outcome": call.outcome,
                "output": call.output,
                "error": _error_text(call, adapter),
            }
            for call in calls
        ],
        "unsupported": _unsupported(verdicts),
        "verdicts": dict(Counter(v.outcome for v in verdicts)),
    }
    return json.dumps(_redacted(document), indent=2, ensure_ascii=False) + "\n"


def render_text(
    case: Case, adapter: LoadedAdapter, calls: Sequence[AdapterCall], verdicts: Sequence[Verdict]
) -> str:
    lines = [
        f"case {case.id} ({case.dialect}); adapter {adapter.name} {adapter.version} "
        f"({adapter.spec})",
    ]
    if not calls:
        lines.append("toolwire made no call to the adapter for this case.")
    for number, call in enumerate(calls, 1):
        lines.append("")
        lines.append(f"{RULE} {number}. {call.where}")
        lines.extend(_exchange_lines(call) if call.exchange else _convert_lines(call))
        if call.outcome == "raised" and out_of_process(adapter.implementation):
            lines.append(str(_error_text(call, adapter)))  # it says who said it
        elif call.outcome != "returned" and not call.exchange:
            lines.append(f"{_outcome_label(call)}: {_error_text(call, adapter)}")
        elif call.exchange and call.error is not None:
            lines.append(f"the exchange failed: {_error_text(call, adapter)}")
    lines.append("")
    for reason in _unsupported(verdicts):
        lines.append(f"unsupported: {reason}")
    counts = Counter(v.outcome for v in verdicts if v.rule_code != UNSUPPORTED)
    if counts:
        summary = ", ".join(f"{count} {outcome}" for outcome, count in sorted(counts.items()))
        command = f"toolwire run --adapter {shlex.quote(adapter.spec)} --select {case.id}"
        lines.append(f"verdicts: {summary}; `{command}` explains them")
    return redact("\n".join(lines)) + "\n"


def _convert_lines(call: AdapterCall) -> list[str]:
    context = ", request=REQUEST" if call.request is not None else ""
    lines = [
        f'toolwire called convert(PAYLOAD, kind="{call.kind}", source="{call.source}", '
        f'target="{call.target}"{context})',
        "PAYLOAD:",
        _json_text(call.payload),
    ]
    if call.request is not None:
        lines += ["REQUEST (the request this answers):", _json_text(call.request)]
    if call.outcome == "returned":
        lines += ["the adapter returned:", _json_text(call.output)]
    return lines


def _exchange_lines(call: AdapterCall) -> list[str]:
    lines = [
        f"toolwire sent the proxy ({call.source} -> its upstream in {call.target}):",
        _json_text(call.payload),
    ]
    summary = call.output if isinstance(call.output, dict) else None
    if summary is None:
        return lines
    forwarded = summary.get("forwarded") or []
    if not forwarded:
        lines.append("the proxy forwarded nothing upstream.")
    for index, body in enumerate(forwarded, 1):
        numbered = f" (request {index})" if len(forwarded) > 1 else ""
        lines += [f"the proxy forwarded upstream{numbered}:", _json_text(body)]
    lines.append(_upstream_line(summary))
    if summary.get("status") is not None:
        content_type = summary.get("content_type") or "no Content-Type"
        lines += [
            f"the proxy returned HTTP {summary['status']} ({content_type}):",
            _json_text(summary.get("downstream")),
        ]
    return lines


def _upstream_line(summary: dict[str, Any]) -> str:
    served, mismatch = summary.get("upstream_answered"), summary.get("mismatch")
    if served is not None and not summary.get("by_position"):
        return f"the replay upstream recognised it: recorded interaction {served}."
    if served is not None:
        return (
            f"the replay upstream did not recognise it ({mismatch}); it answered with "
            f"recorded interaction {served}, where the case is."
        )
    if mismatch is not None:
        return f"the replay upstream could not answer it: {mismatch}."
    return "the replay upstream answered nothing."


def _outcome_label(call: AdapterCall) -> str:
    return {
        "raised": "the adapter raised",
        "declined": "the adapter declined it (unsupported)",
        "timed out": "the adapter timed out",
        "unusable": "the adapter's output cannot be judged",
    }.get(call.outcome, call.outcome)


def _error_text(call: AdapterCall, adapter: LoadedAdapter) -> str | None:
    if call.error is None:
        return None
    if call.outcome != "raised" or not out_of_process(adapter.implementation):
        return call.error
    text = call.error
    for raised, said in _PROCESS_ERRORS.items():
        if text.startswith(raised):
            text = said + text.removeprefix(raised)
    return f"{text} ({_process_note(adapter)})"


def _process_note(adapter: LoadedAdapter) -> str:
    """What can be said of an adapter in another process: it has no Python frame here."""
    implementation = adapter.implementation
    if adapter.spec.startswith("cmd:"):
        channel = getattr(implementation, "_channel", None)
        tail = channel.stderr_tail() if channel is not None else ""
        said = f"; its stderr ends: {tail}" if tail else ""
        return f"a cmd: adapter runs in its own process: toolwire has no Python frame of it{said}"
    return "an http:// proxy runs in its own process: toolwire has no Python frame of it"


def _unsupported(verdicts: Sequence[Verdict]) -> list[str]:
    return [v.message for v in verdicts if v.rule_code == UNSUPPORTED]


def _json_text(value: Any) -> str:
    """Indented JSON; a stream (a list of events) one event per line."""
    if isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
        events = ",\n".join(f"  {json.dumps(e, ensure_ascii=False)}" for e in value)
        return f"[\n{events}\n]"
    return json.dumps(value, indent=2, ensure_ascii=False)


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: _redacted(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(item) for item in value]
    return value
