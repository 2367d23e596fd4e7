"""Opening URLs with a credential: no key follows a redirect to another origin.

urllib's default redirect handling copies every header of the request to
the redirected one, ``Authorization`` and ``x-api-key`` included, wherever
the ``Location`` points. `toolwire record` and `toolwire probe` send the API
key, so they open URLs through ``open_url``: a redirect to another origin
(scheme, host or port, as in https://www.rfc-editor.org/rfc/rfc6454) is
followed without any credential header (``toolwire.harness.corpus.scrub.is_secret_header``:
``Authorization``, ``x-api-key``, ``api-key``, ``Ocp-Apim-Subscription-Key``,
cookies, ...); one to the same origin keeps them, as browsers and the
providers' SDKs (httpx) do.
"""

from __future__ import annotations

import urllib.request
from typing import IO, Any
from urllib.parse import urlsplit

from toolwire.harness.corpus.scrub import is_secret_header

_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of ``url``, the port made explicit."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:  # a port that is not a number: compare it as no port
        port = None
    return scheme, (parts.hostname or "").lower(), port or _DEFAULT_PORTS.get(scheme)


class DropCredentialsOnRedirect(urllib.request.HTTPRedirectHandler):
    """Follows redirects as urllib does, without credentials across origins."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and origin(req.full_url) != origin(new.full_url):
            for held in (new.headers, new.unredirected_hdrs):
                for name in [name for name in held if is_secret_header(name)]:
                    del held[name]
        return new


_OPENER = urllib.request.build_opener(DropCredentialsOnRedirect)


def open_url(request: urllib.request.Request, timeout: float) -> Any:
    """``urllib.request.urlopen`` with ``DropCredentialsOnRedirect``."""
    return _OPENER.open(request, timeout=timeout)
