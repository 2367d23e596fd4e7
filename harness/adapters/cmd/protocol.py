"""The ``cmd:`` protocol: its published JSON Schema and the checks of each message.

Every message is one JSON object per line. The adapter speaks first
(``handshake``); toolwire then sends ``convert`` or ``id_mapping`` with an
``id`` and waits for the ``result``, ``error`` or ``unsupported`` carrying
that id;
``shutdown`` ends the session. ``protocol.schema.json`` (shipped with the
package, printed by ``toolwire adapter-protocol --schema``) is the reference.

Two levels of checking: always, the few facts toolwire cannot work without
(an object with a known ``type``, the expected id, a payload); in validation
mode (``TOOLWIRE_CMD_VALIDATE=1``, ``toolwire adapter-protocol --check``),
every message in both directions against the schema, reporting the first
invalid one with the JSON path of the problem.
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib.resources import files
from typing import Any, Literal, TypeAlias

from toolwire.harness import json_text
from toolwire.harness.errors import ToolwireError

PROTOCOL_VERSION = 1
SCHEMA_RESOURCE = "protocol.schema.json"
VALIDATE_ENV = "TOOLWIRE_CMD_VALIDATE"
Sender: TypeAlias = Literal["adapter", "toolwire"]
# Which messages each side may send.
SENT_BY: dict[Sender, tuple[str, ...]] = {
    "adapter": ("handshake", "result", "error", "unsupported"),
    "toolwire": ("convert", "id_mapping", "shutdown"),
}
CAPABILITIES = ("request_context", "id_mapping")


class ProtocolError(ToolwireError):
    """A message that breaks the protocol (the adapter's bug, or toolwire's)."""

    exit_code = 3


def schema_text() -> str:
    """The published JSON Schema of the protocol, as shipped."""
    return (
        files("toolwire.harness.adapters.cmd").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    )


@cache
def protocol_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


def validation_requested() -> bool:
    return os.environ.get(VALIDATE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def decode_line(line: str, number: int, origin: str = "from the adapter") -> dict[str, Any]:
    """One line as a message object (ProtocolError when it is not one)."""
    try:
        message = json_text.loads(line)
    except json.JSONDecodeError as error:
        raise ProtocolError(
            f"line {number} {origin} is not JSON ({error.msg} at column {error.colno}): "
            f"{_shorten(line)}",
            hint="write exactly one JSON object per line on stdout; send logs to stderr",
        ) from None
    except RecursionError:
        raise ProtocolError(f"line {number} {origin} nests deeper than toolwire can read") from None
    except ValueError:  # the only other refusal: an integer past Python's digit limit
        raise ProtocolError(
            f"line {number} {origin} holds an integer of more than 4,300 digits"
        ) from None
    if not isinstance(message, dict):
        raise ProtocolError(
            f"line {number} {origin} is a JSON {type(message).__name__}, not an object"
        )
    return message


def check_message(message: dict[str, Any], sender: Sender, number: int, full: bool) -> str:
    """The message's type, after checking it (all of the schema when ``full``)."""
    kind = message.get("type")
    allowed = SENT_BY[sender]
    if kind not in allowed:
        raise ProtocolError(
            f"message {number} from {sender} has type {kind!r}",
            hint=f"{sender} sends: {', '.join(allowed)}",
        )
    if full:
        problem = schema_problem(message)
        if problem is not None:
            raise ProtocolError(f"message {number} from {sender} ({kind}) is invalid: {problem}")
    return str(kind)


def schema_problem(message: Any) -> str | None:
    """The first schema violation of ``message`` as 'at PATH: why', or None."""
    from jsonschema.exceptions import best_match

    kind = message.get("type") if isinstance(message, dict) else None
    definitions = protocol_schema()["$defs"]
    # The definition of its own type gives a precise path, where oneOf would not.
    validator = _validator(kind if isinstance(kind, str) and kind in definitions else None)
    error = best_match(validator.iter_errors(message))
    if error is None:
        return None
    return f"at {json_path(error.absolute_path)}: {error.message}"


@cache
def _validator(kind: str | None) -> Any:
    from jsonschema import Draft202012Validator

    schema = protocol_schema()
    if kind is not None:
        schema = {"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"}
    return Draft202012Validator(schema)


def json_path(parts: Any) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _shorten(text: str, limit: int = 120) -> str:
    text = text.strip()
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
