"""Stream issues -> findings: shared by the stream checks of every dialect."""

from __future__ import annotations

from toolwire.conformance.findings import Finding, finding
from toolwire.harness.model import StreamIssue


def issue_path(issue: StreamIssue) -> str:
    return f"events[{issue.event_index}]" if issue.event_index is not None else "events"


def issue_findings(code: str, issues: list[StreamIssue]) -> list[Finding]:
    """One finding per issue code: a problem repeated through a stream is
    reported once, with how often and where it first and last showed."""
    groups: dict[str, list[StreamIssue]] = {}
    for issue in issues:
        groups.setdefault(issue.code, []).append(issue)
    found = []
    for group in groups.values():
        first = group[0]
        message = f"{issue_path(first)}: {first.message}"
        if len(group) > 1:
            message += f" ({len(group)} times in this stream, the last at {issue_path(group[-1])})"
        found.append(finding(code, message, issue_path(first), actual=first.code))
    return found
