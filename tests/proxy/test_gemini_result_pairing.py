"""Results out of call order, toward Gemini without ids (toy proxies on 127.0.0.1).

``parallel/results-out-of-order-*`` answers four parallel calls of one tool in
the order the probes finished (3rd, 1st, 4th, 2nd), each result naming its
call by id. Gemini pairs a ``functionResponse`` with a ``functionCall`` by id
where it has one, else by name and order (docs/conventions.md, "Ids and
thought signatures"; https://ai.google.dev/gemini-api/docs/function-calling):
a proxy that drops the ids and keeps the client's order, as LiteLLM 1.106.2
does toward Gemini before 3, makes each result answer another call. That is
meaning lost, so a rule says so (``fidelity.text`` compares each call's
result), and the replay upstream rightly matches no recording. Dropping the
ids while putting the results in call order, or keeping them, is correct.
"""

from __future__ import annotations

import pytest

from tests.proxy.support import proxied_adapter, verdicts
from toolwire.harness.engine.verdicts import Verdict

CASES = {
    "openai-chat": "parallel/results-out-of-order-openai",
    "anthropic-messages": "parallel/results-out-of-order-anthropic",
}
REQUEST_2 = "request %s->gemini (forwarded upstream), interaction 2"


def _problems(found: list[Verdict]) -> list[tuple[str, str]]:
    return [(v.rule_code, v.outcome) for v in found if v.outcome not in ("pass", "warn")]


@pytest.mark.parametrize("front", sorted(CASES))
def test_ids_dropped_with_results_out_of_order_fail_fidelity_text(front: str) -> None:
    with proxied_adapter(front, "gemini", fault="gemini-drop-ids") as adapter:
        found = verdicts(adapter, CASES[front])
    text = [v for v in found if v.rule_code == "fidelity.text" and v.outcome == "fail"]
    assert len(text) == 1, _problems(found)
    message = text[0].message
    # billing's result answered the source's third call (billing); without ids,
    # the output's third response (search's) answers it.
    assert message.startswith("the result answering the source's call #3 (check_service_status")
    assert "'billing" in message and "became 'search" in message
    # Each of the four calls now reads another call's result, on request 2.
    assert [f.where for f in text[0].findings] == [REQUEST_2 % front] * 4
    # The replay upstream matches no recording: the forwarded meaning differs.
    assert [v.outcome for v in found if v.rule_code == "convert"] == ["error"]
    assert {code for code, _ in _problems(found)} == {"fidelity.text", "convert"}


@pytest.mark.parametrize("front", sorted(CASES))
@pytest.mark.parametrize("fault", [None, "gemini-drop-ids-in-call-order"])
def test_ids_kept_or_results_in_call_order_pass(front: str, fault: str | None) -> None:
    with proxied_adapter(front, "gemini", fault=fault) as adapter:
        found = verdicts(adapter, CASES[front])
    assert _problems(found) == []
    judged = [v for v in found if v.rule_code == "fidelity.text"]
    assert [v.outcome for v in judged] == ["pass"]
