"""toolwire's Qwen3-Coder oracle beside the real parsers' own test cases.

For every peer case (cases.py): the output the peer's test expects, written
as an openai-chat response, is judged by toolwire's xml rules against the
model text: it must break no rule (toolwire never fails what a real parser
is tested to do). Separately, toolwire's own strict parse must give the same
calls and text exactly where the case says ``agree``; the other cases are
the documented splits (docs/rules/xml-peers.md), and their counts are the
ones docs/accuracy.md states.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.qwen_peers import tools as T
from tests.conformance.qwen_peers.cases import CASES, PeerCase
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.readings.xml_oracle import normalised
from toolwire.conformance.readings.xml_values import same_json
from toolwire.conformance.xml import CONVERSION_CHECKS
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml import parse_qwen_xml

ROOT = Path(__file__).resolve().parents[3]


def _response(dialect: str, message: dict[str, Any]) -> Any:
    body = {
        "id": "chatcmpl-peer",
        "object": "chat.completion",
        "model": "qwen3-coder",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }
    return body, get_codec(dialect).parse_response(body)


def source(case: PeerCase) -> PayloadUnderTest:
    body, parsed = _response("qwen-xml", {"role": "assistant", "content": case.text})
    return PayloadUnderTest("qwen-xml", "response", "qwen3-coder", body, parsed, tools=case.tools)


def peer_output(case: PeerCase) -> PayloadUnderTest:
    message: dict[str, Any] = {"role": "assistant", "content": case.content or None}
    if case.calls:
        message["tool_calls"] = [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for n, (name, arguments) in enumerate(case.calls)
        ]
    body, parsed = _response("openai-chat", message)
    return PayloadUnderTest("openai-chat", "response", "openai", body, parsed)


def findings(case: PeerCase) -> list[str]:
    conversion = ConversionUnderTest(source=source(case), output=peer_output(case))
    found = [check(conversion) for check in CONVERSION_CHECKS.values()]
    return [f"{f.code}: {f.message}" for result in found for f in result or []]


def toolwire_agrees(case: PeerCase) -> bool:
    """toolwire's own strict parse gives the peer's calls and text."""
    parse = parse_qwen_xml(case.text, case.tools)
    if parse.rejected or len(parse.calls) != len(case.calls):
        return False
    for got, (name, arguments) in zip(parse.calls, case.calls, strict=True):
        if got.name != name or not same_json(got.arguments, arguments):
            return False
    return normalised(parse.text) == normalised(case.content)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_toolwire_finds_nothing_wrong_in_what_the_peer_expects(case: PeerCase) -> None:
    assert findings(case) == []


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_toolwire_parses_the_same_exactly_where_the_case_says_agree(case: PeerCase) -> None:
    assert case.outcome in ("agree", "accepted")
    assert bool(case.split) == (case.outcome == "accepted")
    assert toolwire_agrees(case) == (case.outcome == "agree")


def test_a_peer_case_can_fail_the_cross_check() -> None:
    # The cross-check is not vacuous: the same peer case with a value left
    # untyped, or a call dropped, is found.
    case = next(c for c in CASES if c.id == "vllm/single_tool_multiline_param")
    name, arguments = case.calls[0]
    untyped = PeerCase(**{**case.__dict__, "calls": [(name, {**arguments, "precision": "2"})]})
    assert [f.split(":")[0] for f in findings(untyped)] == ["xml.parameter_type"]
    dropped = PeerCase(**{**case.__dict__, "calls": []})
    assert [f.split(":")[0] for f in findings(dropped)] == ["xml.call_not_parsed"]
    partial = next(c for c in CASES if c.id == "qwen/dropped_parameter_closer")
    wrong = PeerCase(**{**partial.__dict__, "calls": [("get_weather", {"city": "Paris\n"})]})
    assert [f.split(":")[0] for f in findings(wrong)] == ["xml.malformed_executed"]


def counts() -> dict[str, Counter[str]]:
    table: dict[str, Counter[str]] = {}
    for case in CASES:
        table.setdefault(case.project, Counter())[case.outcome] += 1
    return table


def test_docs_accuracy_states_the_counts() -> None:
    text = (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")
    section = text.split("## Qwen3-Coder XML: peers", 1)[1].split("\n## ", 1)[0]
    for project, tally in counts().items():
        row = re.search(rf"^\| {re.escape(project)} \| (\d+) \| (\d+) \| (\d+) \|", section, re.M)
        assert row is not None, f"docs/accuracy.md has no row for {project}"
        total = sum(tally.values())
        assert row.groups() == (str(total), str(tally["agree"]), str(tally["accepted"]))


def test_a_literal_call_block_in_a_value_gets_no_verdict() -> None:
    # Qwen's and vLLM's regex parsers cut the value at the inner
    # </tool_call>; toolwire reads the block as text. The peers split, so no
    # rule judges such a text (None, not a pass).
    literal = (
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
        "</function>\n</tool_call>"
    )
    text = (
        "<tool_call>\n<function=write_file>\n<parameter=path>\nex.txt\n</parameter>\n"
        f"<parameter=content>\n{literal}\n</parameter>\n</function>\n</tool_call>"
    )
    case = PeerCase("literal", "qwen", "", text, T.QWEN, [("get_weather", {"city": "Paris"})])
    conversion = ConversionUnderTest(source=source(case), output=peer_output(case))
    assert {code: check(conversion) for code, check in CONVERSION_CHECKS.items()} == {
        code: None for code in CONVERSION_CHECKS
    }
