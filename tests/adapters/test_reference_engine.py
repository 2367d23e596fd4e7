"""The reference adapter under the engine: every MUST rule passes on the whole corpus,
through the adapter spec users name (`reference`), with no special binding."""

from __future__ import annotations

from tests.adapters.test_reference_support import corpus, positive_cases
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.model import GEMINI

# Conversions the reference adapter declines on purpose (UnsupportedConversion):
# case id -> what its message says. Never a pass, never an error.
DECLINED = {
    # openai-chat function names stop at 64 characters
    "edge/tool-name-128-chars-anthropic": "cannot be expressed in openai-chat",
    # Anthropic server tools (web search, web fetch, code execution) and their
    # blocks have no Chat Completions equivalent
    **{case.id: "no equivalent" for case in corpus() if "server-tools" in case.features},
    # allowed_tools with two of three tools: Anthropic's tool_choice cannot restrict
    # to a subset (harness/adapters/reference/allowed_tools.py)
    "reasoning-replay/gpt5-mini-tools-plus-output-responses": "has no such restriction",
    # stop sequences have no Responses API parameter: declined rather than dropped
    "single-tool/settings-openai": "have no Responses API equivalent",
    "single-tool/settings-anthropic": "have no Responses API equivalent",
    # a function_call_output whose call the server holds (previous_response_id):
    # another dialect needs the whole conversation in the request
    "responses-dev/previous-response-continuation": "refers to state kept on OpenAI's server",
    # OpenAI's hosted tools: the tool offered, and the item of the tool it ran
    "responses-dev/hosted-web-search": (
        "which OpenAI hosts for the Responses API only",
        "no equivalent for hosted-tool items",
    ),
}
# What gemini cannot say, declined toward it (docs/conventions.md, "Gemini"):
# parallel calls disabled, strict tools mixed or forced, names outside its pattern.
DECLINED_TOWARD_GEMINI = ("Gemini has no switch", "VALIDATED", "cannot be expressed in gemini")
# What only gemini can say, declined from it (docs/conventions.md, "Gemini"):
# ANY restricted to some of the tools (toward anthropic-messages), finish reasons
# without a twin, a user turn of empty text alone (Anthropic refuses empty content).
DECLINED_FROM_GEMINI = (
    "has no such restriction",
    "has no anthropic-messages stop_reason",
    "whose only text is empty",
)


def declined_as_documented(case_id: str, message: str) -> bool:
    said = DECLINED.get(case_id, ())
    if any(reason in message for reason in ((said,) if isinstance(said, str) else said)):
        return True
    if corpus()[case_id].dialect == GEMINI and any(
        reason in message for reason in DECLINED_FROM_GEMINI
    ):
        return True
    return any(reason in message for reason in DECLINED_TOWARD_GEMINI)


def test_every_must_rule_passes_on_the_whole_corpus() -> None:
    adapter = load_adapter("reference")
    assert adapter.accepts_request  # the engine passes the request, so Qwen XML is typed
    options = RunOptions(corpus=corpus(), timeout=60)
    failures: list[str] = []
    passes = 0
    for case in positive_cases():
        for verdict in run_case(case, adapter, options):
            passes += verdict.outcome == "pass"
            if verdict.outcome == "unsupported" and (
                verdict.case_id in DECLINED
                or "->gemini" in verdict.message
                or corpus()[verdict.case_id].dialect == GEMINI
            ):
                assert declined_as_documented(verdict.case_id, verdict.message), verdict.message
                continue
            if verdict.is_failure or verdict.outcome == "unsupported":
                failures.append(f"{verdict.item_id}: {verdict.outcome}: {verdict.message}")
    assert failures == []
    assert passes > 400
