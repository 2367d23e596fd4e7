"""Checking a ``cmd:`` adapter against the protocol while it is being written.

``check_command`` starts the adapter with every message validated, has it
convert one corpus payload per declared direction (and declare its id
mapping when it offers that), and stops at the first message that breaks the
protocol, naming it and the JSON path of the problem. ``check_transcript``
does the same for a file of recorded messages, one per line.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.cmd.adapter import AdapterReportedError, CmdAdapter
from toolwire.harness.adapters.cmd.protocol import (
    SENT_BY,
    ProtocolError,
    decode_line,
    schema_problem,
)
from toolwire.harness.corpus.loader import Corpus
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import PAYLOAD_KINDS, PayloadKind
from toolwire.harness.payloads import SourcePayload, case_payloads


@dataclass
class CheckReport:
    lines: list[str] = field(default_factory=list)
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_command(command: str, corpus: Corpus, timeout: float) -> CheckReport:
    report = CheckReport()
    try:
        adapter = CmdAdapter.launch(command, validate=True, call_timeout=timeout)
    except ToolwireError as error:
        report.problem = str(error)
        return report
    try:
        report.lines.append(
            f"handshake: {adapter.name} {adapter.version}, {len(adapter.directions)} direction(s), "
            f"capabilities: {', '.join(adapter.capabilities) or 'none'}"
        )
        for direction in sorted(adapter.directions):
            kind, source, target = _kind(direction[0]), direction[1], direction[2]
            payload = _sample(corpus, kind, source)
            where = f"{kind} {source}->{target}"
            if payload is None:
                report.lines.append(f"{where}: no {source} {kind} in the corpus to try")
                continue
            if not _try(report, where, adapter, payload, kind, source, target):
                return report
    finally:
        adapter.close()
    return report


def _try(
    report: CheckReport,
    where: str,
    adapter: CmdAdapter,
    payload: SourcePayload,
    kind: PayloadKind,
    source: str,
    target: str,
) -> bool:
    try:
        adapter.convert(copy.deepcopy(payload.raw), kind, source, target, payload.request_raw)
        report.lines.append(f"{where}: result is valid ({payload.label})")
        if "id_mapping" in adapter.capabilities:
            adapter.id_mapping(copy.deepcopy(payload.raw), kind, source, target)
            report.lines.append(f"{where}: id_mapping answer is valid")
    except AdapterReportedError as error:
        report.lines.append(f"{where}: error answer is valid ({error})")
    except UnsupportedConversion as error:
        report.lines.append(f"{where}: unsupported answer is valid ({error})")
    except ToolwireError as error:
        report.problem = f"{where}: {error}"
        return False
    return True


def _kind(value: str) -> PayloadKind:
    for kind in PAYLOAD_KINDS:
        if kind == value:
            return kind
    raise ToolwireError(f"unknown payload kind {value!r}")


def _sample(corpus: Corpus, kind: PayloadKind, dialect: str) -> SourcePayload | None:
    for case in corpus:
        if case.is_negative or case.dialect != dialect or kind not in case.payload_kinds:
            continue
        found = case_payloads(case, kind)
        if found:
            return found[0]
    return None


def check_transcript(lines: Iterable[str]) -> CheckReport:
    """Validate recorded messages, one JSON object per line, in order."""
    report = CheckReport()
    senders = {kind: sender for sender, kinds in SENT_BY.items() for kind in kinds}
    checked = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            message = decode_line(line, number, origin="of the transcript")
        except ProtocolError as error:
            report.problem = str(error)
            return report
        kind = message.get("type")
        if kind not in senders:
            report.problem = f"line {number}: unknown message type {kind!r}"
            return report
        problem = schema_problem(message)
        if problem is not None:
            report.problem = f"line {number} ({kind}, from {senders[kind]}) is invalid: {problem}"
            return report
        checked += 1
    report.lines.append(f"{checked} message(s) valid")
    return report
