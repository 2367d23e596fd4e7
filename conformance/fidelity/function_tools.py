"""The function tools a request offers, as fidelity.tool_definitions and
fidelity.tool_choice read them: user-defined functions only. Server tools (a
versioned ``type``) have no counterpart across dialects and are left out.
"""

from __future__ import annotations

from toolwire.harness.model import Conversation, ToolDef


def function_tools(conversation: Conversation | None) -> list[ToolDef]:
    if conversation is None:
        return []
    return [tool for tool in conversation.tools or () if tool.kind == "function"]
