"""Testing HTTP proxies: the replay upstream and what drives a proxy.

``replay.py`` is the upstream a proxy forwards to (a real server on
127.0.0.1 answering from a cassette); ``matching.py`` decides which recorded
request a received one is, and explains a miss (with ``conversation_key.py``,
the conversation matcher's key, and ``endpoints.py``, the endpoint and stream
choice a path names); ``client.py`` sends a case's
request to the proxy and reads its answer under a deadline; ``process.py``
starts and stops a proxy for ``--proxy-cmd``. The ``http://`` adapter
(harness/adapters/http_adapter.py) puts them together; docs/proxies.md
describes the whole.
"""

from __future__ import annotations

from toolwire.harness.proxy.matching import MATCH_MODES, Matcher
from toolwire.harness.proxy.replay import ReceivedRequest, ReplayUpstream

__all__ = ["MATCH_MODES", "Matcher", "ReceivedRequest", "ReplayUpstream"]
