"""``http://HOST:PORT``: an HTTP proxy under test (docs/proxies.md).

The spec names where the proxy listens and, in its query, what it speaks:

    http://127.0.0.1:8080?front=anthropic-messages&back=openai-chat

``front`` is the dialect clients send it (default ``anthropic-messages``),
``back`` the dialect it sends upstream (default ``openai-chat``). Other keys:
``path`` (the front endpoint; default ``/v1/messages``, ``/v1/responses``,
``/v1/chat/completions``, or for a ``gemini`` front the prefix ``/v1beta``
below which each request goes to ``/models/{model}:generateContent`` or
``:streamGenerateContent?alt=sse``, as its recorded URL says), ``match``
(``conversation``, the default, or ``strict``: how the replay upstream
recognises a forwarded request),
``timeout`` (seconds per request, default 30, capped by the case timeout),
``upstream_port`` (a fixed port for the replay upstream, needed when the
proxy was started by hand), ``ready`` (a path polled until it answers when
``--proxy-cmd`` starts the proxy) and ``name`` / ``version`` (shown in
reports). The proxy must run on this machine: its upstream is the replay
server on 127.0.0.1, so only ``127.0.0.1`` and ``localhost`` are accepted.

The adapter does not convert single payloads: it offers the engine's
``exchange`` capability (harness/adapters/exchanges.py), sending one case
request through the proxy while the replay upstream answers from the twin.
``http_spec.py`` reads and checks the spec.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.adapters.exchanges import ExchangeRecord
from toolwire.harness.adapters.http_spec import ENVIRONMENT, read_spec
from toolwire.harness.corpus.case import Interaction
from toolwire.harness.corpus.record_gemini import API_KEY_HEADER, gemini_endpoint, sent_body
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    PayloadKind,
)
from toolwire.harness.payloads import events_to_wire, with_url_model
from toolwire.harness.proxy.client import ProxyAnswer, post_json
from toolwire.harness.proxy.endpoints import stream_choice
from toolwire.harness.proxy.matching import Matcher, MatchMode
from toolwire.harness.proxy.process import HOST, ProxyProcess, command_words, free_port
from toolwire.harness.proxy.replay import ReceivedRequest, ReplayUpstream, path_of
from toolwire.harness.sse import parse_sse

READY_TIMEOUT = 30.0
EXIT_WAIT = 0.5
# A key the proxy can pass on: the replay upstream ignores credentials.
DUMMY_KEY = "toolwire-replay-key"
# Names a file that keeps the output of a proxy started by --proxy-cmd.
KEEP_LOG_VARIABLE = "TOOLWIRE_PROXY_LOG"
# A Gemini request that names no model in its recorded URL goes to this one.
GEMINI_FALLBACK_MODEL = "gemini-2.5-flash"


class ProxyUsageError(ToolwireError):
    exit_code = 2


class HttpProxyAdapter:
    """An HTTP proxy judged on both legs; see the module docstring for the spec."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        read = read_spec(spec)
        self.port: int | None = read.port
        self.extra_headers = read.extra_headers
        self.front = read.front
        self.back = read.back
        self.path = read.path
        self.match: MatchMode = read.match
        self.request_timeout = read.request_timeout
        self.upstream_port = read.upstream_port
        self.ready_path = read.ready_path
        self.name = read.name
        self.version = read.version
        self._replay: ReplayUpstream | None = None
        self._process: ProxyProcess | None = None
        self._lock = threading.Lock()
        # The cassette being served: kept (not just its id) so identity is safe.
        self._serving: Sequence[Interaction] | None = None

    # --- the adapter protocol ----------------------------------------------------------

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", self.front, self.back),
                ("response", self.back, self.front),
                ("stream", self.back, self.front),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        raise ToolwireError(
            "an http:// proxy converts whole exchanges, not single payloads",
            hint="run it through the engine (toolwire run), which calls exchange()",
        )

    # --- lifecycle -------------------------------------------------------------------------

    def start(self, proxy_command: str | None = None) -> None:
        """Start the replay upstream and, with a command, the proxy itself."""
        if self._replay is not None:
            return
        if proxy_command is None and self.upstream_port is None:
            raise ProxyUsageError(
                f"adapter {self.spec!r}: toolwire cannot tell a proxy it did not start where "
                "the replay upstream is",
                hint="pass --proxy-cmd 'COMMAND {upstream_url} {port}', or add "
                "?upstream_port=PORT and point the proxy at http://127.0.0.1:PORT",
            )
        if proxy_command is None and self.port is None:
            raise ProxyUsageError(
                f"adapter {self.spec!r} names no port", hint="write http://127.0.0.1:PORT"
            )
        replay = ReplayUpstream(self._matcher(), port=self.upstream_port or 0).start()
        self._replay = replay
        if proxy_command is None:
            return
        port = self.port or free_port()
        words = command_words(proxy_command, replay.url, replay.port, port)
        keep_log = os.environ.get(KEEP_LOG_VARIABLE)
        process = ProxyProcess(
            words, port, READY_TIMEOUT, self.ready_path, Path(keep_log) if keep_log else None
        )
        try:
            process.start()
        except ToolwireError:
            self.close()
            raise
        self._process, self.port = process, port

    @property
    def upstream_url(self) -> str | None:
        """The replay upstream's URL once started, else None."""
        return self._replay.url if self._replay is not None else None

    @property
    def proxy_pid(self) -> int | None:
        """The process id of a proxy started by ``--proxy-cmd``, else None."""
        return self._process.pid if self._process is not None else None

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.cleanup()
        replay, self._replay = self._replay, None
        self._serving = None
        if replay is not None:
            replay.stop()

    # --- one exchange --------------------------------------------------------------------

    def exchange(
        self,
        request: Any,
        upstream: Sequence[Interaction],
        timeout: float,
        position: int | None = None,
        uri: str | None = None,
    ) -> ExchangeRecord:
        """Send ``request`` through the proxy while the replay answers from
        ``upstream``; a forwarded request that matches no recording is answered
        with recording ``position`` when it is the same kind of call, so that
        the proxy's answer is judged too (docs/proxies.md, "Matching").
        ``uri`` is where the case's request was recorded: a Gemini front takes
        the model and the stream choice from it."""
        with self._lock:  # one cassette at a time: exchanges never overlap
            if self._replay is None:
                self.start()
            assert self._replay is not None and self.port is not None
            if upstream is not self._serving:
                # A case's requests share one cassette: reading its recordings
                # (their matching keys) once per case, not once per request, keeps
                # a long multi-request case linear, and a recording served to an
                # earlier request of the case is not offered first again.
                self._replay.serve(upstream, self._matcher())
                self._serving = upstream
            self._replay.answer_by_position(position)
            before = len(self._replay.received())
            path, body, stream = self._front_call(request, uri)
            answer = post_json(
                HOST,
                self.port,
                path,
                body,
                self._headers(stream),
                min(timeout, self.request_timeout),
            )
            received = self._replay.received()[before:]
        note = self._exit_note() if answer.failure else ""
        return _record(answer, received, note, self.back)

    def _front_call(self, request: Any, uri: str | None) -> tuple[str, Any, bool]:
        """Where the case's request goes, its body, and whether it streams.
        A Gemini call names its model and stream choice in the path (the
        recorded URL's), so toolwire's ``model`` key leaves the body."""
        if self.front != GEMINI:
            stream = isinstance(request, dict) and request.get("stream") is True
            return self.path, request, stream
        recorded = path_of(uri) if uri else ""
        streams = stream_choice(GEMINI, recorded, None) is not False
        model = request.get("model") if isinstance(request, dict) else None
        if not isinstance(model, str) or not model:
            model = GEMINI_FALLBACK_MODEL
        body = sent_body(request) if isinstance(request, dict) else request
        return gemini_endpoint(self.path, model.removeprefix("models/"), streams), body, streams

    def _headers(self, stream: bool) -> dict[str, str]:
        headers = {"Accept": "text/event-stream" if stream else "application/json"}
        if self.front == ANTHROPIC_MESSAGES:
            headers.update({"anthropic-version": "2023-06-01", "x-api-key": DUMMY_KEY})
        elif self.front == GEMINI:
            headers[API_KEY_HEADER] = DUMMY_KEY
        else:
            headers["Authorization"] = f"Bearer {DUMMY_KEY}"
        for name, template in self.extra_headers:  # the user's win over the defaults
            for same in [key for key in headers if key.lower() == name.lower()]:
                del headers[same]
            headers[name] = self._header_value(template)
        return headers

    def _header_value(self, template: str) -> str:
        replay = self._replay
        value = template
        if replay is not None:
            value = value.replace("{upstream_url}", replay.url)
            value = value.replace("{upstream_port}", str(replay.port))
        return ENVIRONMENT.sub(lambda found: os.environ.get(found.group(1), ""), value)

    def _exit_note(self) -> str:
        if self._process is None:
            return ""
        # A proxy that just died may not be reaped yet when its socket closes.
        status = self._process.exit_status(wait=EXIT_WAIT)
        if status is None:
            return ""
        tail = " | ".join(self._process.log_tail(5).splitlines())
        return f" (the proxy process exited with status {status}; its log ends: {tail})"

    def _matcher(self) -> Matcher:
        return Matcher(self.match, self.back, front=self.front)


def _record(
    answer: ProxyAnswer, received: Sequence[ReceivedRequest], note: str, back: str
) -> ExchangeRecord:
    served = next((r.matched for r in received if r.matched is not None), None)
    misses = [r.miss for r in received if r.miss is not None]
    mismatch = misses[0] if misses and served is None else None
    by_position = False
    if served is None:
        # A miss answered with the recording where the case is: the response
        # leg is judged against it, the miss stays the request leg's error.
        served = next((r.by_position for r in received if r.by_position is not None), None)
        by_position = served is not None
    failure = f"{answer.failure}{note}" if answer.failure else None
    kind: PayloadKind = "stream" if answer.is_event_stream else "response"
    # The engine judges the first forwarded request. A request that matched this
    # case's recordings goes first: one that arrived earlier but matched nothing may
    # be a late retry of an earlier case's request (a proxy still retrying after
    # toolwire gave up on it), and judging it would blame this case for it.
    received = sorted(received, key=lambda r: r.matched is None)
    return ExchangeRecord(
        forwarded=tuple(_forwarded(r, back) for r in received),
        served=served,
        by_position=by_position,
        mismatch=mismatch,
        status=answer.status,
        downstream=_downstream(answer, kind),
        downstream_kind=kind if answer.status is not None else None,
        content_type=answer.content_type,
        failure=failure,
    )


def _forwarded(received: ReceivedRequest, back: str) -> Any:
    """A forwarded body as the request leg reads it: a Gemini body gets the
    model its path names, as the case's twin does (``with_url_model``)."""
    body = received.body_or_text
    return with_url_model(body, received.path) if back == GEMINI else body


def _downstream(answer: ProxyAnswer, kind: PayloadKind) -> Any:
    if kind == "stream":
        return events_to_wire(parse_sse(answer.text))
    try:
        return json_text.loads(answer.text)
    except json.JSONDecodeError:
        return answer.text
