"""One probe run's shared state: the endpoint, and every conversation sent.

Steps ask through ``ProbeSession.ask``: it sends, stops the whole probe on
an answer no later step could get past (the credentials refused, the
endpoint or model not found), and reads the answer. Each step files its
exchanges under a named conversation, which ``--record`` saves as a corpus
case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolwire.harness.probe.observe import Observation, observe
from toolwire.harness.probe.transport import Endpoint, Exchange, ProbeError, error_message, post

# Statuses after which no step can succeed: stop with one clear line.
_CREDENTIAL_STATUSES = (401, 403)
_NOT_FOUND = 404

Sender = Callable[[Endpoint, Mapping[str, Any]], Exchange]


@dataclass
class Conversation:
    """The exchanges of one conversation, in order, and how to file them.
    ``violations`` makes the saved case a negative one (rule codes)."""

    slug: str
    title: str
    exchanges: list[Exchange] = field(default_factory=list)
    violations: tuple[str, ...] = ()


@dataclass
class ProbeSession:
    endpoint: Endpoint
    model: str
    send: Sender = post
    conversations: list[Conversation] = field(default_factory=list)
    served_model: str | None = None  # the model name the answers carry

    @property
    def dialect(self) -> str:
        return self.endpoint.dialect

    def conversation(self, slug: str, title: str) -> Conversation:
        """A new conversation, filed for recording."""
        return self.file(Conversation(slug, title))

    def file(self, conversation: Conversation) -> Conversation:
        self.conversations.append(conversation)
        return conversation

    def ask(self, conversation: Conversation, body: Mapping[str, Any]) -> Observation:
        """Send ``body`` as the next exchange of ``conversation`` and read the answer."""
        exchange = self.send(self.endpoint, body)
        conversation.exchanges.append(exchange)
        self._stop_on_fatal(exchange)
        observation = observe(self.dialect, exchange)
        if self.served_model is None and observation.response is not None:
            self.served_model = observation.response.model
        return observation

    def error_text(self, exchange: Exchange) -> str:
        return f"HTTP {exchange.status}: {error_message(exchange, self.endpoint)}"

    def _stop_on_fatal(self, exchange: Exchange) -> None:
        url = self.endpoint.scrubber().uri(exchange.url)
        if exchange.status in _CREDENTIAL_STATUSES:
            raise ProbeError(
                f"{url}: the endpoint refused the credentials ({self.error_text(exchange)})",
                hint="set the API key's environment variable, or name it with --api-key-env",
            )
        if exchange.status == _NOT_FOUND:
            raise ProbeError(
                f"{url}: not found ({self.error_text(exchange)})",
                hint="check --base-url (the API base, e.g. https://api.openai.com/v1) and --model",
            )


def refusal(session: ProbeSession, observation: Observation) -> str:
    """Why an answer could not be used: the endpoint's error, or what failed to parse."""
    if not observation.exchange.ok:
        return session.error_text(observation.exchange)
    return "; ".join(observation.problems) or "the answer could not be read"
