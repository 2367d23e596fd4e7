"""Requests that continue a conversation the server keeps.

An openai-responses request with ``previous_response_id`` or ``conversation``
set does not carry the whole conversation: the API prepends the earlier
response (its input and output) or the conversation's items to ``input``
(https://platform.openai.com/docs/guides/conversation-state). A
``function_call_output`` there answers a call that lives in that earlier
state, and the model's last answer is not sent back by the client. Rules that
pair results with calls, or compare a replayed answer with the response,
cannot judge what only the server holds: they judge what the request itself
carries, and nothing else.
"""

from __future__ import annotations

from toolwire.harness.model import OPENAI_RESPONSES, Conversation

SERVER_STATE_FIELDS = ("previous_response_id", "conversation")


def server_state(conversation: Conversation) -> str | None:
    """The field through which ``conversation`` continues server-side state, if any."""
    if conversation.dialect != OPENAI_RESPONSES:
        return None
    for name in SERVER_STATE_FIELDS:
        value = conversation.extra.get(name)
        if value not in (None, "", {}):
            return name
    return None
