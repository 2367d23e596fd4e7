"""The documents rules cite: provider documentation, official SDK code, and
public reports of what a real API refused. Shared by the rule definitions
(their ``docs`` and ``evidence``); a URL used by one rule only may stay in
that rule's module."""

OPENAI_DOCS = "https://platform.openai.com/docs/api-reference/chat/create"
OPENAI_TOOLS = "https://platform.openai.com/docs/guides/function-calling"
OPENAI_STREAM = "https://platform.openai.com/docs/api-reference/chat-streaming"
ANTHROPIC_DOCS = "https://docs.anthropic.com/en/api/messages"
ANTHROPIC_TOOLS = "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use"
ANTHROPIC_THINKING = "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking"
ANTHROPIC_STREAM = "https://docs.anthropic.com/en/docs/build-with-claude/streaming"
DEEPSEEK_THINKING = "https://api-docs.deepseek.com/guides/thinking_mode"
DEEPSEEK_REASONER = "https://api-docs.deepseek.com/guides/reasoning_model"
QWEN_CODER = "https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct"
OPENAI_CHUNK = "https://platform.openai.com/docs/api-reference/chat-streaming/streaming"
OPENAI_PYTHON_STREAM_HELPER = "https://github.com/openai/openai-python/blob/main/src/openai/lib/streaming/chat/_completions.py"
ANTHROPIC_STOP_REASONS = "https://docs.anthropic.com/en/api/handling-stop-reasons"
# The official Go SDK's ChatCompletionAccumulator: refuses a chunk whose id is
# not the stream's, and places each call fragment at tool_calls[index].
OPENAI_GO_ACCUMULATOR = "https://github.com/openai/openai-go/blob/main/streamaccumulator.go"
ANTHROPIC_PARALLEL = (
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use"
)
# Anthropic's maintainers on what the signature check rejects (edited, reordered,
# merged thinking blocks, or blocks another model produced), with the recorded 400s.
ANTHROPIC_SIGNATURE_400 = "https://github.com/anthropics/anthropic-sdk-python/issues/1598"
GEMINI_FUNCTION_CALLING = "https://ai.google.dev/gemini-api/docs/function-calling"
GEMINI_GENERATION_CONFIG = "https://ai.google.dev/api/generate-content#generationconfig"
GEMINI_THOUGHT_SIGNATURES = "https://ai.google.dev/gemini-api/docs/thought-signatures"
# Gemini 400 "the number of function response parts is equal to the number of
# function call parts of the function call turn" (gemini-2.5-pro).
GEMINI_RESPONSE_COUNT_400 = "https://github.com/google-gemini/gemini-cli/issues/4217"
# The OpenAI Responses API (openai-responses).
RESPONSES_DOCS = "https://platform.openai.com/docs/api-reference/responses/create"
RESPONSES_STREAM = "https://platform.openai.com/docs/api-reference/responses-streaming"
RESPONSES_REASONING = "https://platform.openai.com/docs/guides/reasoning"
# openai-python's ResponseStreamState: RuntimeError without response.created,
# for a content event before its output item, and without response.completed.
OPENAI_PYTHON_RESPONSES_STREAM = (
    "https://github.com/openai/openai-python/blob/main/src/openai/lib/streaming/responses/"
    "_responses.py"
)
# Recorded HTTP 400s of api.openai.com/v1/responses for a reasoning item
# replayed alone and a function_call replayed without its reasoning item.
RESPONSES_REASONING_ALONE_400 = "https://github.com/continuedev/continue/issues/8933"
RESPONSES_CALL_WITHOUT_REASONING_400 = "https://github.com/continuedev/continue/issues/10018"


# Public reports of a real API refusing a payload (evidence of a MUST).
ORPHAN_OPENAI = "https://github.com/FoundationAgents/OpenManus/issues/744"
ORPHAN_ANTHROPIC = "https://github.com/anthropics/claude-code/issues/13460"
UNANSWERED_ANTHROPIC = "https://github.com/anthropics/claude-code/issues/1237"
UNANSWERED_OPENAI = "https://github.com/microsoft/promptflow/pull/3130"
# The API reference's function tool (openai-python's FunctionToolParam.strict,
# generated from the same spec, says the same).
RESPONSES_FUNCTION_TOOL = "https://platform.openai.com/docs/api-reference/responses/create"
# Anthropic's parallel tool use page: every tool_result of one assistant turn
# goes in the next user message.
ANTHROPIC_PARALLEL_TOOLS = (
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use"
)
# Recorded 400s "tool_use ids were found without tool_result blocks
# immediately after" for results split over consecutive user messages: Claude
# on Vertex AI (toolu_vrtx_ ids, through google-antigravity), DeepSeek's
# Anthropic-format endpoint, and Anthropic's API.
SPLIT_RESULTS_VERTEX_400 = "https://github.com/openclaw/clawhub/issues/151"
SPLIT_RESULTS_DEEPSEEK_ANTHROPIC_400 = "https://github.com/OnesoftQwQ/opencode-go-copilot/pull/89"
SPLIT_RESULTS_ANTHROPIC_400 = "https://github.com/rowboatlabs/rowboat/pull/378"
