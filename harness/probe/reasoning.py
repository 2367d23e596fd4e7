"""Step 6: must the reasoning be replayed when a tool loop continues?

Thinking-mode models return reasoning with their calls (DeepSeek's
``reasoning_content``, Anthropic ``thinking`` blocks). DeepSeek documents
that a tool-call turn's reasoning must be passed back in every later
request, and answers HTTP 400 otherwise
(https://api-docs.deepseek.com/guides/thinking_mode; the error body as users
report it: {"error": {"message": "The `reasoning_content` in the thinking
mode must be passed back to the API.", "type": "invalid_request_error",
"param": null, "code": "invalid_request_error"}},
https://github.com/JohnnyZ93/oai-compatible-copilot/issues/215).

So the step takes the first call that came back with reasoning (steps 3 and
5 keep them), sends the continuation WITHOUT the reasoning, and:
* accepted: ``requiresReasoningReplay = false``;
* HTTP 400: ``true``; the same continuation is sent again WITH the
  reasoning, which must be accepted (else the step fails: something else is
  wrong);
* another error: undecided; ``true`` is kept, the safe choice for a model
  that returns reasoning (``partial``).
A model that returned no reasoning has nothing to replay: ``false``, ``pass``.
"""

from __future__ import annotations

from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI, OPENAI_RESPONSES
from toolwire.harness.probe.evidence import Notes, Status, StepResult, step_result
from toolwire.harness.probe.requests import continued
from toolwire.harness.probe.session import Conversation, ProbeSession, refusal

# The rules a DeepSeek-style continuation without reasoning_content breaks
# (docs/rules: the reasoning of a tool-call turn is missing, so the turn sent
# back differs from the one returned); the saved case is a negative case.
DROPPED_REASONING_VIOLATIONS = ("reasoning.replay_missing", "replay.assistant_altered")
_REFUSED_FOR_REPLAY = 400


def reasoning_state(session: ProbeSession, notes: Notes) -> StepResult:
    if not notes.reasoning_points:
        reason = "no reasoning came back with a tool call in steps 3 and 5: nothing to replay"
        return step_result(6, False, "pass", reason)
    point = notes.reasoning_points[0]
    first = point.observation

    def result(status: Status, required: bool, reason: str, requests: int) -> StepResult:
        return step_result(6, required, status, reason, first, (), requests)

    without = continued(session.dialect, point.request, first, point.answers, keep_reasoning=False)
    trial = Conversation(
        "reasoning-dropped", "step 6, continuation without the reasoning", [first.exchange]
    )
    attempt = session.ask(trial, without)
    session.file(trial)
    if attempt.ok:
        return result("pass", False, "the continuation without the reasoning was accepted", 1)
    without_text = refusal(session, attempt)
    if attempt.exchange.status != _REFUSED_FOR_REPLAY:
        reason = (
            f"without the reasoning: {without_text}; not a 400, so undecided "
            "(replaying the reasoning stays on)"
        )
        return result("partial", True, reason, 1)
    trial.slug, trial.title = "reasoning-not-replayed", "step 6, refused without the reasoning"
    if session.dialect == GEMINI:
        # Gemini 3 refuses a call sent back without its thought signature.
        trial.violations = ("replay.assistant_altered",)
    elif session.dialect not in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES):
        # The DeepSeek-style rules only: Anthropic and the Responses API judge a
        # dropped reasoning block / item by their own rules.
        trial.violations = DROPPED_REASONING_VIOLATIONS
    replayed = session.conversation("reasoning-replayed", "step 6, the reasoning replayed")
    replayed.exchanges.append(first.exchange)
    retry = session.ask(replayed, continued(session.dialect, point.request, first, point.answers))
    if retry.ok:
        reason = f"without the reasoning: {without_text}; accepted with the reasoning replayed"
        return result("pass", True, reason, 2)
    reason = f"without the reasoning: {without_text}; with it, still {refusal(session, retry)}"
    return result("fail", True, reason, 2)
