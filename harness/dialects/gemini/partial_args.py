"""Vertex AI's streamed function-call arguments, put back into one call.

With ``streamFunctionCallArguments`` Vertex AI sends a call over many chunks
(``FunctionCall`` and ``PartialArg`` in the Vertex AI API reference,
https://docs.cloud.google.com/dotnet/docs/reference/Google.Cloud.AIPlatform.V1Beta1/latest/Google.Cloud.AIPlatform.V1Beta1.FunctionCall;
``willContinue`` and ``partialArgs`` are "not supported in Gemini API",
https://googleapis.github.io/js-genai/release_docs/interfaces/types.FunctionCall.html):

* the first ``functionCall`` part has the ``name`` (and the part's
  ``thoughtSignature``) and ``willContinue: true``;
* the next ones have no name, and ``partialArgs``: each a ``jsonPath``
  (RFC 9535, e.g. ``$.operations[0].action``) and one of ``stringValue``,
  ``numberValue``, ``boolValue``, ``nullValue``; a string whose
  ``willContinue`` is true goes on in the next ``PartialArg`` of the same
  path (the pieces are joined);
* the call ends with the first part whose ``willContinue`` is not true, often
  an empty ``functionCall: {}``.

``StreamedCall`` collects one such call; ``whole_part`` is the part the
non-streamed API would have sent (``functionCall: {name, args, id?}``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CONTINUES = "willContinue"
PARTIAL = "partialArgs"
_VALUE_FIELDS = ("stringValue", "numberValue", "boolValue", "nullValue")
_SEGMENT = re.compile(
    r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\[\"((?:[^\"\\]|\\.)*)\"\]"
)


class PartialArgError(ValueError):
    """A ``PartialArg`` that cannot be placed (its message says why)."""


def opens_stream(call: Mapping[str, Any]) -> bool:
    """A ``functionCall`` that starts (or is) a streamed call."""
    return call.get(CONTINUES) is True or PARTIAL in call


def continues(call: Mapping[str, Any]) -> bool:
    """A ``functionCall`` that carries on the call already open: no name of its own."""
    return "name" not in call and "args" not in call


@dataclass
class StreamedCall:
    """One call being streamed: the part as it will read, and its arguments so far."""

    part: dict[str, Any]
    args: dict[str, Any] = field(default_factory=dict)
    open_strings: set[tuple[str | int, ...]] = field(default_factory=set)
    done: bool = False

    @classmethod
    def start(cls, part: Mapping[str, Any]) -> StreamedCall:
        call = part["functionCall"]
        head = {k: v for k, v in call.items() if k not in (CONTINUES, PARTIAL)}
        streamed = cls(part={**part, "functionCall": head})
        if isinstance(call.get("args"), Mapping):
            streamed.args = dict(call["args"])
        streamed.add(part)
        return streamed

    def add(self, part: Mapping[str, Any]) -> None:
        """One more part of this call (the first one too); raises PartialArgError."""
        call = part["functionCall"]
        for key, value in part.items():
            if key != "functionCall" and key not in self.part:
                self.part[key] = value  # a thoughtSignature sent on a later piece
        for key, value in call.items():
            if key not in (CONTINUES, PARTIAL, "args") and key not in self.part["functionCall"]:
                self.part["functionCall"][key] = value
        pieces = call.get(PARTIAL, [])
        if not isinstance(pieces, list):
            raise PartialArgError("`partialArgs` is not an array")
        for piece in pieces:
            self._place(piece)
        if call.get(CONTINUES) is not True:
            self.done = True

    def _place(self, piece: Any) -> None:
        if not isinstance(piece, Mapping) or not isinstance(piece.get("jsonPath"), str):
            raise PartialArgError("a `partialArgs` entry has no string `jsonPath`")
        path = parse_json_path(piece["jsonPath"])
        found = [name for name in _VALUE_FIELDS if name in piece]
        if len(found) > 1:
            raise PartialArgError(f"{piece['jsonPath']}: more than one value ({', '.join(found)})")
        if not found:
            if piece.get(CONTINUES) is not True:
                self.open_strings.discard(path)
            return
        value: Any = None if found[0] == "nullValue" else piece[found[0]]
        if found[0] == "stringValue":
            before = _get(self.args, path)
            if path in self.open_strings and isinstance(before, str) and isinstance(value, str):
                value = before + value
            if piece.get(CONTINUES) is True:
                self.open_strings.add(path)
            else:
                self.open_strings.discard(path)
        _put(self.args, path, value)

    def whole_part(self) -> dict[str, Any]:
        """The call as one part: ``functionCall: {name, args, id?}`` and its metadata."""
        return {**self.part, "functionCall": {**self.part["functionCall"], "args": self.args}}


def parse_json_path(text: str) -> tuple[str | int, ...]:
    """``$.a[0]['b']`` -> ``("a", 0, "b")``; raises PartialArgError on anything else."""
    if not text.startswith("$"):
        raise PartialArgError(f"jsonPath {text[:80]!r} does not start at `$`")
    segments: list[str | int] = []
    position = 1
    while position < len(text):
        match = _SEGMENT.match(text, position)
        if match is None:
            raise PartialArgError(f"jsonPath {text[:80]!r} is not a path of names and indexes")
        name, index, single, double = match.groups()
        if index is not None:
            segments.append(int(index))
        else:
            quoted = single if single is not None else double
            segments.append(name if name is not None else re.sub(r"\\(.)", r"\1", quoted or ""))
        position = match.end()
    if not segments:
        raise PartialArgError("jsonPath `$` names the whole arguments object, not one argument")
    return tuple(segments)


def _get(root: Any, path: tuple[str | int, ...]) -> Any:
    value = root
    for segment in path:
        if isinstance(segment, int) and isinstance(value, list) and segment < len(value):
            value = value[segment]
        elif isinstance(segment, str) and isinstance(value, dict):
            value = value.get(segment)
        else:
            return None
    return value


def _put(root: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    holder: Any = root
    for segment, following in zip(path, (*path[1:], None), strict=True):
        last = following is None
        empty: Any = [] if isinstance(following, int) else {}
        if isinstance(segment, int):
            if not isinstance(holder, list):
                raise PartialArgError("jsonPath indexes into something that is not an array")
            while len(holder) <= segment:
                holder.append(None)
            if last:
                holder[segment] = value
            elif not isinstance(holder[segment], dict | list):
                holder[segment] = empty
        else:
            if not isinstance(holder, dict):
                raise PartialArgError("jsonPath names a field of something that is not an object")
            if last:
                holder[segment] = value
            elif not isinstance(holder.get(segment), dict | list):
                holder[segment] = empty
        if not last:
            holder = holder[segment]
