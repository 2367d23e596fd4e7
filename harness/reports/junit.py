"""JUnit XML: one testcase per case × rule, for CI test-report viewers.

``classname`` is the case id and ``name`` the rule code, so viewers group by
case; a failure's ``message`` starts with the rule code and ends with the
absolute URL of the rule's page, and its text is the five-part explanation.
Outcomes map as pytest maps them: ``fail`` and ``stale`` are failures,
``error`` an error, ``xfail`` and ``unsupported`` skipped, ``warn`` (a
SHOULD) a pass with the explanation in system-out.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime
from typing import Any

from toolwire.harness.reports.summary import Record, adapter_label
from toolwire.harness.rule_links import rule_url

# Characters XML 1.0 cannot carry at all, even escaped: they are shown as \xNN.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """``text`` with characters XML forbids drawn visibly (``\\x00``, ``\\ud800``)."""
    return _NOT_XML.sub(lambda m: repr(m.group())[1:-1], text)


def render_junit(document: Record) -> str:
    """The JUnit XML report of a results document, as text."""
    verdicts = document["verdicts"]
    counts = _counts(verdicts)
    seconds = f"{_duration(document):.3f}"
    root = ET.Element("testsuites", _attrs(name="toolwire", time=seconds, **counts))
    suite = ET.SubElement(
        root,
        "testsuite",
        _attrs(
            name=f"toolwire {adapter_label(document)}",
            timestamp=str(document.get("started", "")),
            time=seconds,
            **counts,
        ),
    )
    properties = ET.SubElement(suite, "properties")
    for name, value in _properties(document):
        ET.SubElement(properties, "property", _attrs(name=name, value=value))
    for verdict in verdicts:
        _testcase(suite, verdict)
    if document.get("broken"):
        ET.SubElement(suite, "system-err").text = xml_safe(f"BROKEN: {document['broken']}")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="utf-8"?>\n{body}\n'


def _testcase(suite: ET.Element, verdict: Record) -> None:
    case = ET.SubElement(
        suite, "testcase", _attrs(classname=verdict["case"], name=verdict["rule"], time="0")
    )
    outcome = verdict["outcome"]
    rule = verdict["rule"]
    explanation = verdict.get("explanation") or verdict["message"]
    message = f"{rule}: {verdict['message']}" if verdict["message"] else rule
    url = rule_url(rule)
    if url:  # viewers show the message first: the rule's page one click away
        message = f"{message} (rule page: {url})"
    if outcome in ("fail", "stale"):
        kind = rule if outcome == "fail" else "stale-baseline"
        element = ET.SubElement(case, "failure", _attrs(message=message, type=kind))
        element.text = xml_safe(explanation)
    elif outcome == "error":
        element = ET.SubElement(case, "error", _attrs(message=message, type=rule))
        element.text = xml_safe(explanation)
    elif outcome == "xfail":
        reason = verdict.get("baseline_reason") or "listed in the baseline"
        ET.SubElement(case, "skipped", _attrs(message=f"xfail ({rule}): {reason}", type="xfail"))
    elif outcome == "unsupported":
        ET.SubElement(case, "skipped", _attrs(message=message, type="unsupported"))
    elif outcome == "warn":
        ET.SubElement(case, "system-out").text = xml_safe(explanation)


def _counts(verdicts: list[Any]) -> dict[str, str]:
    outcomes = [v["outcome"] for v in verdicts]
    return {
        "tests": str(len(outcomes)),
        "failures": str(sum(o in ("fail", "stale") for o in outcomes)),
        "errors": str(outcomes.count("error")),
        "skipped": str(sum(o in ("xfail", "unsupported") for o in outcomes)),
    }


def _properties(document: Record) -> list[tuple[str, str]]:
    corpus = document.get("corpus", {})
    adapter = document["adapter"]
    return [
        ("toolwire", str(document.get("toolwire", ""))),
        ("adapter", str(adapter.get("name", ""))),
        ("adapter.version", str(adapter.get("version", ""))),
        ("adapter.spec", str(adapter.get("spec", ""))),
        ("corpus.version", str(corpus.get("version") or "unknown")),
        ("rules_version", str(document.get("rules_version", ""))),
        ("python", str(document.get("python", ""))),
        ("platform", str(document.get("platform", ""))),
    ]


def _attrs(**values: str) -> dict[str, str]:
    # ElementTree escapes markup characters; forbidden characters need xml_safe.
    return {key: xml_safe(value) for key, value in values.items()}


def _duration(document: Record) -> float:
    try:
        started = datetime.fromisoformat(str(document["started"]))
        finished = datetime.fromisoformat(str(document["finished"]))
    except (KeyError, ValueError):
        return 0.0
    return max((finished - started).total_seconds(), 0.0)
