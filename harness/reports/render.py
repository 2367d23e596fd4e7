"""The report formats by name: ``toolwire report RESULTS --format NAME``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from toolwire.harness.reports.badge import render_badge
from toolwire.harness.reports.html_report import render_html
from toolwire.harness.reports.junit import render_junit
from toolwire.harness.reports.markdown import render_markdown
from toolwire.harness.reports.summary import Record

Renderer = Callable[[Record], str]

RENDERERS: Mapping[str, Renderer] = {
    "junit": render_junit,
    "md": render_markdown,
    "html": render_html,
    "badge": render_badge,
}
# The file name each format is usually written to.
FILE_NAMES: Mapping[str, str] = {
    "junit": "junit.xml",
    "md": "summary.md",
    "html": "report.html",
    "badge": "badge.json",
}


def render(document: Record, format_name: str) -> str:
    return RENDERERS[format_name](document)
