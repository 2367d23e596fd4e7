"""Absolute links to the rule pages, for reports, explanations and errors.

A report travels (a CI artifact, a mail attachment, a job summary), so a link
to a rule must not depend on a checkout: it is the ``Documentation`` entry of
``[project.urls]`` in pyproject.toml, the one place to change it, followed by
the rule's page path (``rules/<family>/<rule>.md``). The entry is read from the
installed distribution's metadata; a checkout whose install predates the entry
falls back to its pyproject.toml. ``TOOLWIRE_DOCS_URL`` overrides both (a fork,
a mirror, an internal copy of the pages).

Every page also ships in the wheel and opens offline: ``toolwire rule CODE``
(harness/rule_pages.py), which the terminal names beside the link.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import tomllib
from pathlib import Path

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.pages.locations import INDEX_PATH, page_path

DISTRIBUTION = "toolwire"
URL_LABEL = "Documentation"
OVERRIDE_ENV = "TOOLWIRE_DOCS_URL"
CHECKOUT_PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


@functools.cache
def documentation_url() -> str | None:
    """``$TOOLWIRE_DOCS_URL``, else the ``Documentation`` project URL, without a
    trailing slash; None when toolwire is neither installed with it nor run
    from a checkout that has it."""
    found = (
        os.environ.get(OVERRIDE_ENV, "").strip()
        or _from_metadata()
        or _from_pyproject(CHECKOUT_PYPROJECT)
    )
    return found.rstrip("/") if found else None


def rule_url(code: str) -> str | None:
    """The absolute URL of ``code``'s page; None for a code that is not a rule
    (``convert``, ``unsupported``, a code of an older catalogue)."""
    if code not in RULES_BY_CODE:
        return None
    return _absolute(page_path(code))


def rule_reference(code: str) -> str:
    """The rule's link and the command that prints its page offline."""
    url = rule_url(code)
    offline = f"toolwire rule {code}"
    return f"{url}  (offline: {offline})" if url else offline


def rules_index_url() -> str:
    """Where the list of every rule lives."""
    return _absolute(INDEX_PATH)


def _absolute(path: str) -> str:
    base = documentation_url()
    # Without a base (neither installed nor a checkout) the path in the
    # repository is still the most useful thing to show.
    return f"{base}/{path}" if base else f"docs/{path}"


def _from_metadata() -> str | None:
    try:
        entries = importlib.metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for entry in entries:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == URL_LABEL.lower() and url.strip():
            return url.strip()
    return None


def _from_pyproject(path: Path) -> str | None:
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    project = document.get("project")
    if not isinstance(project, dict) or project.get("name") != DISTRIBUTION:
        return None
    urls = project.get("urls")
    url = urls.get(URL_LABEL) if isinstance(urls, dict) else None
    return url if isinstance(url, str) and url.strip() else None
