"""The rule pages, offline: read from the installed toolwire, never the network.

The wheel ships docs/rules as the data package ``toolwire._rule_pages``
(pyproject.toml, package-dir); in a checkout ``toolwire/_rule_pages`` is a
link to docs/rules. Where neither is there (a tree copied without its docs),
the page is written again from the rule's definition and its examples, as
``python -m toolwire.conformance.pages docs/rules`` writes it: the same text.
"""

from __future__ import annotations

from importlib import resources

from toolwire.harness.errors import ToolwireError

PAGES_PACKAGE = "toolwire._rule_pages"


class UnknownRuleError(ToolwireError):
    exit_code = 2


def rule_codes() -> list[str]:
    from toolwire.conformance.catalogue import RULE_CODES

    return list(RULE_CODES)


def check_code(code: str) -> str:
    """``code`` if it is a rule's; else an UnknownRuleError with close matches."""
    from toolwire.harness.corpus.vocabulary import closest

    codes = rule_codes()
    if code in codes:
        return code
    near = closest(code, codes, count=3)
    # A bare name (orphan_result) matches the rule of that name in any family.
    near += [c for c in codes if c.split(".", 1)[1] == code and c not in near]
    hint = f"did you mean: {', '.join(near)}? " if near else ""
    raise UnknownRuleError(
        f"{code!r} is not a rule code",
        hint=hint + "`toolwire rule` lists every rule",
    )


def page_text(code: str) -> str:
    """The Markdown page of rule ``code`` (checked with ``check_code``)."""
    from toolwire.conformance.pages.locations import page_path

    check_code(code)
    relative = page_path(code).removeprefix("rules/")
    shipped = _shipped(relative)
    return shipped if shipped is not None else _rendered(code)


def _shipped(relative: str) -> str | None:
    try:
        page = resources.files(PAGES_PACKAGE)
        for part in relative.split("/"):  # one at a time: a namespace package's path
            page = page.joinpath(part)
        return page.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, OSError):
        return None


def _rendered(code: str) -> str:
    from toolwire.conformance.catalogue import RULES_BY_CODE
    from toolwire.conformance.pages.rule_page import load_examples, render_rule_page

    return render_rule_page(RULES_BY_CODE[code], load_examples())
