"""What parsing a Qwen3-Coder assistant text yields.

The parse accounts for every character: its segments, in input order, are
plain text, valid calls and rejected calls, and their raw texts concatenate
back to the input exactly (``QwenParse.source``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

from toolwire.harness.model import ToolCall

# The issue codes, permanent like rule codes:
# - missing_opener: a <function=...> call with no <tool_call> before it;
# - unclosed_tag: an element whose closing tag never comes: the input ends
#   inside it, or something that can only follow its closer comes first
#   (the parent's closing tag, the next <parameter=...>, a new <tool_call>,
#   text where </tool_call> belongs);
# - malformed_markup: a broken or misplaced tag (<function> without =name, a
#   name not closed by '>', a stray </parameter>, text between parameters);
# - unknown_tool / unknown_parameter / missing_required / invalid_value /
#   duplicate_parameter: the call does not fit the tool definitions;
# - text_after_calls: non-blank text after the first call (the format puts
#   text only before the calls). The text is kept; the calls stay valid.
IssueCode: TypeAlias = Literal[
    "missing_opener",
    "unclosed_tag",
    "malformed_markup",
    "unknown_tool",
    "unknown_parameter",
    "duplicate_parameter",
    "missing_required",
    "invalid_value",
    "text_after_calls",
]
ISSUE_CODES: tuple[IssueCode, ...] = get_args(IssueCode)


@dataclass(frozen=True)
class XmlIssue:
    """One problem. ``offset`` is where in the input the parser noticed it;
    ``call_index`` counts call blocks (valid and rejected) from 0 and is
    ``None`` for problems outside any call."""

    code: IssueCode
    message: str
    offset: int
    call_index: int | None = None
    parameter: str | None = None


@dataclass(frozen=True)
class TextSegment:
    text: str
    offset: int

    @property
    def raw(self) -> str:
        return self.text


@dataclass(frozen=True)
class CallSegment:
    """A valid call; ``call.raw_arguments`` is its exact markup."""

    call: ToolCall
    offset: int
    index: int

    @property
    def raw(self) -> str:
        return self.call.raw_arguments or ""


@dataclass(frozen=True)
class RejectedCall:
    """A call that must not run: its exact text and why it was refused."""

    raw: str
    offset: int
    index: int
    name: str | None
    issues: tuple[XmlIssue, ...]


QwenSegment: TypeAlias = TextSegment | CallSegment | RejectedCall


@dataclass(frozen=True)
class QwenParse:
    segments: tuple[QwenSegment, ...]
    issues: tuple[XmlIssue, ...]

    @property
    def calls(self) -> tuple[ToolCall, ...]:
        return tuple(s.call for s in self.segments if isinstance(s, CallSegment))

    @property
    def rejected(self) -> tuple[RejectedCall, ...]:
        return tuple(s for s in self.segments if isinstance(s, RejectedCall))

    @property
    def text(self) -> str:
        """All plain text, joined (markup removed)."""
        return "".join(s.text for s in self.segments if isinstance(s, TextSegment))

    @property
    def source(self) -> str:
        """The input, rebuilt from the segments."""
        return "".join(s.raw for s in self.segments)
