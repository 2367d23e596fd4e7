"""``cmd:COMMAND`` adapters: converters in any language over newline-delimited JSON.

``adapter.py`` drives the process, ``channel.py`` moves the lines,
``protocol.py`` checks the messages against ``protocol.schema.json`` (the
published protocol; ``toolwire adapter-protocol --schema`` prints it).
"""

from __future__ import annotations

from toolwire.harness.adapters.cmd.adapter import (
    AdapterProcessError,
    AdapterReportedError,
    CmdAdapter,
)
from toolwire.harness.adapters.cmd.protocol import PROTOCOL_VERSION, ProtocolError, schema_text

__all__ = [
    "PROTOCOL_VERSION",
    "AdapterProcessError",
    "AdapterReportedError",
    "CmdAdapter",
    "ProtocolError",
    "schema_text",
]
