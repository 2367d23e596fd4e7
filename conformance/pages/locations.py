"""Where the rule pages live: one page per rule, under its family's folder
(docs/rules/pairing/orphan_result.md), and the index beside them."""

from __future__ import annotations

INDEX_PATH = "rules/README.md"


def page_path(code: str) -> str:
    """The rule's page, relative to docs/: ``rules/<family>/<name>.md``."""
    family, name = code.split(".", 1)
    return f"rules/{family}/{name}.md"
