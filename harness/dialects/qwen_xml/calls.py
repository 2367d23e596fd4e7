"""One call block being read: its markup, parameters and issues.

The parser (``parser.py``) decides where tags are; this module judges what
they mean against the tool definitions and builds the final segment: a
valid ``ToolCall`` when there is no issue, a ``RejectedCall`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.harness.dialects.qwen_xml.result import (
    CallSegment,
    IssueCode,
    QwenSegment,
    RejectedCall,
    XmlIssue,
)
from toolwire.harness.dialects.qwen_xml.schema import (
    ToolIndex,
    parameter_schema,
    parameters_root,
    required_parameters,
)
from toolwire.harness.dialects.qwen_xml.values import convert_value
from toolwire.harness.model import ToolCall, ToolDef


def strip_markup_newlines(raw: str) -> str:
    """Drop the one newline after ``<parameter=NAME>`` and the one before
    ``</parameter>``: they belong to the markup (WIRE.md 1.4)."""
    value = raw[1:] if raw.startswith("\n") else raw
    return value[:-1] if value.endswith("\n") else value


@dataclass
class CallBuilder:
    index: int
    offset: int
    bare: bool  # opened by <function= without <tool_call>
    tools: ToolIndex
    parts: list[str] = field(default_factory=list)
    name: str | None = None
    name_parts: list[str] = field(default_factory=list)
    issues: list[XmlIssue] = field(default_factory=list)
    arguments: dict[str, Any] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    parameter: str | None = None  # the open <parameter=...>, if any
    value_offset: int = 0
    value_parts: list[str] = field(default_factory=list)
    nested: int = 0  # open literal <tool_call> blocks inside the value
    # Where the first literal block began: (index in parts, input offset).
    literal_from: tuple[int, int] | None = None
    # Whitespace after </function>: part of the call only if </tool_call> follows.
    tail: list[str] = field(default_factory=list)
    tail_offset: int = 0

    @property
    def function_tag(self) -> str:
        return f"<function={self.name}>"

    def open_elements(self, *inner: str) -> list[str]:
        """``inner`` plus the function and (if any) the <tool_call> around it."""
        outer = [self.function_tag] if self.bare else [self.function_tag, "<tool_call>"]
        return [*inner, *outer]

    def issue(self, code: IssueCode, message: str, at: int, parameter: str | None = None) -> None:
        self.issues.append(XmlIssue(code, message, at, self.index, parameter))

    def unclosed(self, elements: list[str], found: str, at: int) -> None:
        verb = "is" if len(elements) == 1 else "are"
        message = f"{' and '.join(elements)} {verb} not closed before {found}"
        self.issue("unclosed_tag", message, at, self.parameter)

    def set_name(self, at: int) -> None:
        self.name = "".join(self.name_parts)
        if not self.name:
            self.issue("malformed_markup", "<function=> has an empty name", at)
        elif self.tools.is_unknown(self.name):
            self.issue("unknown_tool", f"no tool named {self.name!r} in the request's tools", at)

    def open_parameter(self, at: int) -> None:
        name = "".join(self.name_parts)
        self.parameter, self.value_parts, self.value_offset = name, [], at
        if not name:
            self.issue("malformed_markup", "<parameter=> has an empty name", at)
        elif name in self.seen:
            self.issue("duplicate_parameter", f"parameter {name!r} given twice", at, name)
        else:
            self.seen.add(name)
            if self._schema_known() and not parameter_schema(self._tool(), name).known:
                message = f"tool {self.name!r} has no parameter {name!r}"
                self.issue("unknown_parameter", message, at, name)

    def close_parameter(self) -> None:
        name, raw = self.parameter, strip_markup_newlines("".join(self.value_parts))
        self.parameter, self.value_parts = None, []
        if not name or name in self.arguments:
            return  # broken or duplicate: already reported
        tool = self._tool()
        schema = parameter_schema(tool, name).schema if tool is not None else None
        converted = convert_value(raw, schema, parameters_root(tool))
        if not converted.ok:
            message = f"parameter {name!r}: {converted.error}"
            self.issue("invalid_value", message, self.value_offset, name)
        self.arguments[name] = converted.value

    def check_required(self, at: int) -> None:
        if not self._schema_known():
            return
        for name in required_parameters(self._tool()):
            if name not in self.seen:
                message = f"required parameter {name!r} of {self.name!r} is missing"
                self.issue("missing_required", message, at, name)

    def segment(self) -> QwenSegment:
        raw = "".join(self.parts)
        if self.issues:
            return RejectedCall(raw, self.offset, self.index, self.name, tuple(self.issues))
        call = ToolCall(id=None, name=self.name, arguments=dict(self.arguments), raw_arguments=raw)
        return CallSegment(call=call, offset=self.offset, index=self.index)

    def _schema_known(self) -> bool:
        return bool(self.tools.known and self.name and not self.tools.is_unknown(self.name))

    def _tool(self) -> ToolDef | None:
        return self.tools.find(self.name) if self.name else None
