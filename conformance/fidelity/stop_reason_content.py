"""fidelity.stop_reason_content: a response's stop reason agrees with its content.

fidelity.stop_reason_content judges one response (or reassembled stream) on
its own: a tool stop (anthropic ``tool_use``, openai ``tool_calls``) with no
tool call sends a client down its tool branch with nothing to run (agent
loops stall: vllm-project/vllm#53255, earendil-works/pi#9681), and an
anthropic ``end_turn`` beside a ``tool_use`` block makes the documented loop
("run the tool while stop_reason is tool_use",
https://docs.anthropic.com/en/api/handling-stop-reasons) skip the call
(can1357/oh-my-pi#12224, strands-agents/harness-sdk#1827). Server tool blocks
(``server_tool_use``, ``mcp_tool_use``) count as calls beside ``tool_use``,
but not beside ``end_turn``: the server ran them, and the real API ends such
answers with ``end_turn`` (recorded in ../shared/real-transcripts). Not judged: an
openai ``stop`` beside calls (OpenAI itself answers a forced ``tool_choice``
that way), ``max_tokens`` / ``length`` (a call may be cut or complete), and
any other stop reason.
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import ANTHROPIC_STOP_REASONS, ANTHROPIC_TOOLS, OPENAI_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, QWEN_XML, OpaqueBlock, ToolCall

STOP_REASON_CONTENT = rule(
    "fidelity.stop_reason_content",
    "MUST",
    "payload",
    "A response's stop reason agrees with its content: tool_use / tool_calls only with a "
    "tool call, and an anthropic-messages end_turn never beside a tool_use block.",
    ANTHROPIC_STOP_REASONS,
    ANTHROPIC_TOOLS,
    OPENAI_DOCS,
    dialects=frozenset({ANTHROPIC, "openai-chat", "deepseek-chat"}),
    evidence=(
        documented(ANTHROPIC_STOP_REASONS, "stop_reason tool_use: the response holds tools to run"),
        documented(OPENAI_DOCS, "finish_reason tool_calls: the model called a tool"),
        rejected(
            "https://github.com/vllm-project/vllm/issues/53255",
            'finish_reason "tool_calls" beside no call: the client takes the tool branch '
            "with nothing to run",
        ),
    ),
    fix=(
        "Derive the stop reason from what the response carries: tool_use / tool_calls only "
        "when there is a tool call, and never end_turn beside a tool_use block."
    ),
)


_SERVER_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})


def check_stop_reason_content(payload: PayloadUnderTest) -> list[Finding] | None:
    response = payload.response
    if response is None or not response.choices or payload.dialect == QWEN_XML:
        return None
    anthropic = payload.dialect == ANTHROPIC_MESSAGES
    judged = False
    found = []
    for number, choice in enumerate(response.choices):
        stop = choice.stop_reason
        blocks = choice.message.blocks
        calls = sum(isinstance(block, ToolCall) for block in blocks)
        server_calls = sum(
            isinstance(block, OpaqueBlock) and block.type in _SERVER_CALLS for block in blocks
        )
        path = "stop_reason" if anthropic else f"choices[{number}].finish_reason"
        if stop.canonical == "tool_use":
            judged = True
            if not calls and not server_calls:
                found.append(
                    finding(
                        "fidelity.stop_reason_content",
                        f"{path} is {stop.raw!r}, but the message carries no tool call: a "
                        "client looks for a call to run and finds none",
                        path,
                        expected="a tool call beside this stop reason",
                        actual=stop.raw,
                    )
                )
        elif anthropic and stop.canonical == "end_turn":
            judged = True
            if calls:
                found.append(
                    finding(
                        "fidelity.stop_reason_content",
                        f"stop_reason is {stop.raw!r} beside {calls} tool_use block(s): a "
                        "client runs tools only when stop_reason is 'tool_use'",
                        path,
                        expected="tool_use",
                        actual=stop.raw,
                    )
                )
    return found if judged else None


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "fidelity.stop_reason_content": check_stop_reason_content,
}
