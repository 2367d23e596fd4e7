"""``CmdAdapter``: a converter in any language, driven over newline-delimited JSON.

``cmd:COMMAND`` starts COMMAND (split like a shell would, run without one)
once, reads its handshake (name, version, directions, capabilities), then
sends one ``convert`` per payload and waits for the answer with that id, at
most ``call_timeout`` seconds. An ``error`` answer becomes the case's
``error`` verdict, an ``unsupported`` one (the adapter declines the payload)
raises ``UnsupportedConversion``; the process stays. A process that dies, goes silent past
the timeout or loses the thread of the conversation (not JSON, a wrong id) is
stopped and started again for the next call; after three such failures in a
row the adapter is marked broken and every later call says why at once.
"""

from __future__ import annotations

import math
import os
import shlex
import threading
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.cmd.channel import (
    ChannelClosed,
    ChannelTimeout,
    LineChannel,
    LineTooLong,
)
from toolwire.harness.adapters.cmd.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    check_message,
    decode_line,
    encode,
    validation_requested,
)
from toolwire.harness.errors import AdapterLoadError, ToolwireError
from toolwire.harness.model import PayloadKind
from toolwire.harness.redaction import redact
from toolwire.harness.wire_values import INPUT_FACTOR, MAX_OUTPUT_CHARS

CALL_TIMEOUT = 10.0
HANDSHAKE_TIMEOUT = 10.0
TIMEOUT_ENV = "TOOLWIRE_CMD_TIMEOUT"
MAX_FAILURES_IN_A_ROW = 3


class AdapterProcessError(ToolwireError):
    """The adapter process died, hung or broke the protocol on this call."""

    exit_code = 3


class AdapterReportedError(ToolwireError):
    """The adapter answered this conversion with an ``error`` message."""


class CmdAdapter:
    def __init__(
        self,
        command: str,
        validate: bool | None = None,
        call_timeout: float | None = None,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
    ) -> None:
        self.command = command
        try:
            self.words = shlex.split(command)
        except ValueError as error:
            raise AdapterLoadError(f"adapter 'cmd:{command}': {error}") from None
        if not self.words:
            raise AdapterLoadError(
                "adapter 'cmd:' names no command",
                hint="write cmd:COMMAND, e.g. cmd:node adapter.js",
            )
        self.validate = validation_requested() if validate is None else validate
        self.call_timeout = call_timeout or _timeout_from_environment()
        self.handshake_timeout = handshake_timeout
        self.handshake: dict[str, Any] = {}
        self._channel: LineChannel | None = None
        self._lock = threading.Lock()
        self._next_id = 0
        self._received = 0
        self._failures = 0
        self._broken: str | None = None

    @classmethod
    def launch(cls, command: str, **options: Any) -> CmdAdapter:
        """Start the process and read its handshake (AdapterLoadError when that fails)."""
        adapter = cls(command, **options)
        try:
            adapter._connect()
        except ToolwireError as error:
            raise AdapterLoadError(f"adapter 'cmd:{command}': {error}") from error
        return adapter

    # --- the adapter protocol ----------------------------------------------------------

    @property
    def name(self) -> str:
        return str(self.handshake.get("name", ""))

    @property
    def version(self) -> str:
        return str(self.handshake.get("version", ""))

    @property
    def directions(self) -> list[tuple[str, str, str]]:
        return [(str(k), str(s), str(t)) for k, s, t in self.handshake.get("directions", [])]

    @property
    def capabilities(self) -> tuple[str, ...]:
        return tuple(self.handshake.get("capabilities", ()))

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        message = {"type": "convert", "kind": kind, "source": source, "target": target}
        message["payload"] = payload
        if request is not None and kind != "request" and "request_context" in self.capabilities:
            message["request"] = request
        return self._call(message)

    def id_mapping(
        self, payload: Any, kind: PayloadKind, source: str, target: str
    ) -> dict[str, str] | None:
        if "id_mapping" not in self.capabilities:
            return None
        message = {"type": "id_mapping", "kind": kind, "source": source, "target": target}
        message["payload"] = payload
        mapping = self._call(message)
        if not isinstance(mapping, dict) or not all(isinstance(v, str) for v in mapping.values()):
            raise AdapterProcessError("the id_mapping answer is not an object of id strings")
        return mapping

    def close(self) -> None:
        # Not under the lock: a call stuck waiting for its answer holds it, and
        # closing (at the end of a run, on Ctrl-C or SIGTERM) must not wait for
        # that call. The stuck call then sees the process end.
        channel, self._channel = self._channel, None
        if channel is not None:
            channel.close(farewell=encode({"type": "shutdown"}))

    # --- the session ---------------------------------------------------------------------

    def _connect(self) -> None:
        try:
            channel = LineChannel(self.words)
        except OSError as error:
            raise AdapterLoadError(
                f"cannot start {self.words[0]!r}: {error}",
                hint="check the command; it runs without a shell, from the current folder",
            ) from error
        try:
            line = channel.receive(self.handshake_timeout)
            self._received = 1
            handshake = decode_line(line, 1)
            if handshake.get("type") != "handshake":
                raise ProtocolError(
                    f"the adapter's first message has type {handshake.get('type')!r}",
                    hint='it must first write {"type": "handshake", "protocol": 1, ...}',
                )
            check_message(handshake, "adapter", 1, full=self.validate)
            _check_handshake(handshake)
        except ChannelTimeout:
            channel.kill()
            raise ProtocolError(
                f"the adapter wrote no handshake within {self.handshake_timeout:g} s",
                hint="write the handshake line on stdout at start and flush it",
            ) from None
        except ChannelClosed as error:
            raise ProtocolError(f"{error} before its handshake") from None
        except ToolwireError:
            channel.kill()
            raise
        if self.handshake and _identity(handshake) != _identity(self.handshake):
            channel.kill()
            raise ProtocolError("the restarted adapter declared other directions than before")
        self.handshake, self._channel = handshake, channel

    def _call(self, message: dict[str, Any]) -> Any:
        with self._lock:
            if self._broken is not None:
                raise AdapterProcessError(self._broken)
            if self._channel is None:
                self._restart()
            channel = self._channel
            assert channel is not None
            self._next_id += 1
            message = {"type": message["type"], "id": self._next_id, **message}
            if self.validate:
                check_message(message, "toolwire", self._next_id, full=True)
            data = encode(message)
            # The output limit applies while reading: an answer line may take
            # as many bytes as the engine would take characters of output.
            channel.max_line = max(MAX_OUTPUT_CHARS, INPUT_FACTOR * len(data))
            try:
                channel.send(data)
                line = channel.receive(self.call_timeout)
            except LineTooLong as error:
                raise self._drop(
                    f"the adapter's answer is {error} ({error.limit / 1_000_000:.1f} MB, the "
                    "limit on an output while it is read); it was not read"
                ) from None
            except ChannelTimeout:
                raise self._drop(
                    f"the adapter gave no answer within {self.call_timeout:g} s "
                    f"(raise {TIMEOUT_ENV} if it is slow)"
                ) from None
            except ChannelClosed as error:
                raise self._drop(str(error)) from None
            self._received += 1
            return self._read_answer(line, message["id"])

    def _read_answer(self, line: str, wanted: int) -> Any:
        number = self._received
        try:
            answer = decode_line(line, number)
        except ProtocolError as error:
            raise self._drop(str(error)) from None
        if answer.get("id") != wanted:
            raise self._drop(
                f"message {number} from the adapter answers id {answer.get('id')!r}, "
                f"toolwire asked id {wanted}"
            )
        kind = check_message(answer, "adapter", number, full=self.validate)
        if kind == "unsupported":
            self._failures = 0
            raise UnsupportedConversion(redact(str(answer.get("message") or "(no reason given)")))
        if kind == "error":
            self._failures = 0
            detail = answer.get("message") or "(no message)"
            error_type = answer.get("error_type")
            text = f"{error_type}: {detail}" if error_type else str(detail)
            raise AdapterReportedError(redact(text))
        if kind != "result" or "payload" not in answer:
            raise ProtocolError(f"message {number} from the adapter ({kind}) carries no payload")
        self._failures = 0
        return answer["payload"]

    def _restart(self) -> None:
        try:
            self._connect()
        except ToolwireError as error:
            raise self._drop(f"restarting it failed: {error}") from None

    def _drop(self, reason: str) -> AdapterProcessError:
        """Stop the process after a failure; mark the adapter broken after too many."""
        channel, self._channel = self._channel, None
        if channel is not None:
            channel.kill()
        self._failures += 1
        if self._failures >= MAX_FAILURES_IN_A_ROW:
            self._broken = (
                f"the adapter process failed {self._failures} times in a row and is not "
                f"restarted again; last: {reason}"
            )
            return AdapterProcessError(self._broken)
        return AdapterProcessError(f"{reason}; it will be restarted for the next call")


def _check_handshake(handshake: dict[str, Any]) -> None:
    """What toolwire needs from a handshake even without full validation."""
    if handshake.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(
            f"the adapter speaks protocol {handshake.get('protocol')!r}; toolwire speaks "
            f"{PROTOCOL_VERSION}",
            hint='write "protocol": 1 in the handshake',
        )
    for field in ("name", "version"):
        if not isinstance(handshake.get(field), str) or not handshake[field]:
            raise ProtocolError(f"the handshake's {field} must be a non-empty string")
    directions = handshake.get("directions")
    if not isinstance(directions, list) or not all(
        isinstance(d, list) and len(d) == 3 for d in directions
    ):
        raise ProtocolError(
            "the handshake's directions must be a list of [kind, source, target] triples"
        )


def _identity(handshake: dict[str, Any]) -> tuple[Any, ...]:
    return (handshake.get("name"), sorted(map(tuple, handshake.get("directions", []))))


def _timeout_from_environment() -> float:
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    if not text:
        return CALL_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not math.isfinite(value) or value <= 0:  # nan would be no timeout at all
        raise AdapterLoadError(f"{TIMEOUT_ENV}={text!r} is not a positive number of seconds")
    return value
