"""A baseline written from a results file: one line per failure.

``toolwire baseline RESULTS`` lists every MUST failure (``fail``) and every
failure already baselined (``xfail``, keeping its reason) as
``case-id::rule-code  # reason``, in case and rule order, so a team can adopt
toolwire on a converter that does not pass yet and then shrink the list.
Errors are not listed: an adapter that raised is not a known rule failure,
and a baseline line names a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.conformance.catalogue import RULE_CODES

REASON_PLACEHOLDER = "TODO: say why this failure is accepted"


def baseline_lines(document: Mapping[str, Any]) -> list[str]:
    """The baseline entries for a results document, with a header comment."""
    verdicts = document.get("verdicts")
    entries: dict[tuple[str, str], str] = {}
    for verdict in verdicts if isinstance(verdicts, list) else ():
        if not isinstance(verdict, Mapping):
            continue
        case, rule, outcome = verdict.get("case"), verdict.get("rule"), verdict.get("outcome")
        if not (isinstance(case, str) and rule in RULE_CODES and outcome in ("fail", "xfail")):
            continue
        reason = verdict.get("baseline_reason")
        entries[(case, str(rule))] = " ".join(str(reason).split()) if reason else REASON_PLACEHOLDER
    adapter = document.get("adapter")
    name = adapter.get("name") if isinstance(adapter, Mapping) else None
    header = [
        f"# toolwire baseline for {name or 'the adapter'}: known failures, one per line.",
        "# Replace each TODO with the reason; delete a line once its failure is fixed.",
    ]
    lines = [f"{case}::{rule}  # {reason}" for (case, rule), reason in sorted(entries.items())]
    return header + lines
