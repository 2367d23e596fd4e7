"""A shields.io endpoint badge: ``{"schemaVersion": 1, "label", "message", "color"}``.

Fields per https://shields.io/badges/endpoint-badge (validated by shields
with the Joi schema in badges/shields services/endpoint-common.js):
``schemaVersion`` is the number 1, ``label`` a string (may be empty),
``message`` a non-empty string; ``color`` and ``isError`` are optional.
Serve the JSON from any URL and point
``https://img.shields.io/endpoint?url=...`` at it.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.reports.summary import Record, judged, status

DEFAULT_LABEL = "toolwire"


def badge(document: Record, label: str = DEFAULT_LABEL) -> dict[str, Any]:
    """The endpoint JSON: passed checks out of judged ones, coloured by the run's verdict."""
    totals = document["totals"]
    verdict = status(document)
    if verdict == "BROKEN":
        return {
            "schemaVersion": 1,
            "label": label,
            "message": "adapter broken",
            "color": "lightgrey",
            "isError": True,
        }
    total = judged(totals)
    message = f"{totals.get('pass', 0)}/{total} passed" if total else "nothing judged"
    failing = sum(totals.get(o, 0) for o in ("fail", "error", "stale"))
    if failing:
        message += f", {failing} failing"
    if verdict == "FAIL":
        color = "red"
    elif totals.get("warn") or totals.get("xfail"):
        color = "yellow"  # every MUST holds, but SHOULDs fail or failures are baselined
    else:
        color = "brightgreen" if total else "lightgrey"
    return {"schemaVersion": 1, "label": label, "message": message, "color": color}


def render_badge(document: Record) -> str:
    return json.dumps(badge(document), ensure_ascii=False) + "\n"
