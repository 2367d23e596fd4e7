"""Tool-call ids across dialects: kept unchanged, or mapped reversibly.

Anthropic requires ``tool_use.id`` and ``tool_result.tool_use_id`` to match
``^[a-zA-Z0-9_-]+$`` (https://docs.anthropic.com/en/api/messages); OpenAI
documents no pattern, and OpenAI-compatible servers have sent ids with other
characters (``call:1``, ``functions.get_weather:0``).

The scheme (``to_anthropic_id``):

* an id that is already legal and does not start with ``twid_`` is kept as it is
  (every id of the bundled corpus);
* any other id becomes ``twid_`` + its UTF-8 bytes in unpadded base64url. The
  base64url alphabet is exactly ``[A-Za-z0-9_-]``, so the result is legal,
  and an id that already starts with ``twid_`` is encoded too, so no two ids
  ever map to the same one.

``from_anthropic_id`` is its inverse: it decodes a ``twid_`` id only when
encoding the decoded text gives that id back, so ids written by Anthropic
(``toolu_...``) and anything else pass unchanged. Missing or empty ids are
never invented: they stay as they are for the pairing rules to report.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable

ID_PREFIX = "twid_"
ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def to_anthropic_id(call_id: str | None) -> str | None:
    if not call_id:
        return call_id
    if ANTHROPIC_ID.match(call_id) and not call_id.startswith(ID_PREFIX):
        return call_id
    encoded = base64.urlsafe_b64encode(call_id.encode("utf-8")).decode("ascii")
    return ID_PREFIX + encoded.rstrip("=")


def from_anthropic_id(call_id: str | None) -> str | None:
    if not call_id or not call_id.startswith(ID_PREFIX):
        return call_id
    body = call_id[len(ID_PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return call_id
    return decoded if to_anthropic_id(decoded) == call_id else call_id


def changed_ids(ids: Iterable[str | None], to_anthropic: bool) -> dict[str, str]:
    """The declared mapping (source id -> target id) for the ids that change."""
    mapping: dict[str, str] = {}
    convert = to_anthropic_id if to_anthropic else from_anthropic_id
    for call_id in ids:
        mapped = convert(call_id)
        if call_id and mapped and mapped != call_id:
            mapping[call_id] = mapped
    return mapping
