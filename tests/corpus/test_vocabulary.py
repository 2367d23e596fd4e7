"""The closed vocabularies in code must be the ones the format document lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolwire.harness.corpus import vocabulary
from toolwire.harness.model import DIALECTS

DOC = Path(__file__).resolve().parents[2] / "docs" / "corpus-format.md"


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start : end if end != -1 else None]


def _backticked(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_features_match_the_document() -> None:
    assert tuple(_backticked(_section("### Features"))) == vocabulary.FEATURES


def test_profiles_match_the_document() -> None:
    assert tuple(_backticked(_section("### Profiles"))) == vocabulary.PROFILES


def test_forbidden_headers_match_the_document() -> None:
    section = _section("## Secrets")
    listed = _backticked(section.split("headers in a request or response:", 1)[1].split(";")[0])
    assert frozenset(listed) == vocabulary.FORBIDDEN_HEADERS


def test_xml_issue_codes_match_the_document() -> None:
    section = _section("### `expect`")
    listing = section.split("from this closed list:", 1)[1].split(".\n", 1)[0]
    assert tuple(_backticked(listing)) == vocabulary.XML_ISSUE_CODES


def test_xml_issue_codes_match_the_qwen_parser() -> None:
    result = pytest.importorskip("toolwire.harness.dialects.qwen_xml.result")
    assert vocabulary.XML_ISSUE_CODES == result.ISSUE_CODES


def test_dialects_in_the_document_are_the_model_dialects() -> None:
    row = next(line for line in DOC.read_text().splitlines() if line.startswith("| `dialect`"))
    assert tuple(d for d in _backticked(row) if d != "dialect") == DIALECTS


def test_closest_and_hint() -> None:
    assert vocabulary.closest("paralel", vocabulary.FEATURES) == ["parallel"]
    assert vocabulary.closest("zzzz", vocabulary.FEATURES) == []
    assert vocabulary.unknown_value_hint("opneai", ("openai", "anthropic")) == (
        "did you mean 'openai'? valid: openai, anthropic"
    )
    assert vocabulary.unknown_value_hint("zzz", ("openai",)) == "valid: openai"


def test_patterns() -> None:
    assert re.match(vocabulary.ID_PATTERN, "parallel/text-then-two-calls")
    assert not re.match(vocabulary.ID_PATTERN, "Parallel/x")
    assert not re.match(vocabulary.ID_PATTERN, "a//b")
    assert not re.match(vocabulary.ID_PATTERN, "a-/b")
    assert re.match(vocabulary.RULE_CODE_PATTERN, "ordering.result_after_text")
    assert not re.match(vocabulary.RULE_CODE_PATTERN, "ordering")
    assert not re.match(vocabulary.RULE_CODE_PATTERN, "Ordering.x")
    assert not re.match(vocabulary.RULE_CODE_PATTERN, "ordering.result-after-text")
