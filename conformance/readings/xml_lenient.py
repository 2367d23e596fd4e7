"""What the real Qwen3-Coder parsers may also make of a value or a call.

toolwire's parser (``toolwire.harness.dialects.qwen_xml``) reads the XML strictly:
values typed by JSON Schema, any broken markup rejects the call. The parsers
that serve the model split on several points (docs/rules/xml-peers.md,
tests/conformance/qwen_peers/), so a converter that does what one of them
does is not wrong at MUST level:

* value spellings and precision: Qwen's own parser (and vLLM, sglang, which copy it)
  lower-cases booleans and ``null`` (``TRUE``, ``NULL``), reads integers with
  Python ``int()`` (``03106`` -> 3106) and maps type names outside JSON Schema
  (``int``, ``float``, ``bool``, ``dict``, ``list``...); llama.cpp trims the
  whitespace around every value and keeps numbers as doubles (an integer
  beyond 2**53 arrives rounded);
* untyped and unreadable values: Qwen's parser, vLLM and sglang agree that a
  parameter whose schema has no ``type`` (an ``enum`` alone) arrives as its
  text, and that a value their typing cannot read (``230.0`` for an integer)
  falls back to its text;
* markup: Qwen's parser and vLLM's qwen3_xml parser close a value that a
  following ``<parameter=``, ``</function>`` or ``</tool_call>`` interrupts
  (a dropped ``</parameter>``, the values complete); none of the parsers
  refuses a call for a missing required parameter.

``value_alternatives`` lists the values a parameter may arrive as;
``recovered_call`` gives the complete call a rejected block stands for when
its only faults are of these kinds (None when the arguments would really be
partial: the input ends inside the call, broken tags, unknown tools).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.conformance.readings.xml_values import same_json
from toolwire.harness.dialects.qwen_xml import RejectedCall, parse_qwen_xml
from toolwire.harness.dialects.qwen_xml.calls import strip_markup_newlines
from toolwire.harness.dialects.qwen_xml.schema import ToolIndex, parameter_schema, parameters_root
from toolwire.harness.dialects.qwen_xml.values import convert_value
from toolwire.harness.model import ToolCall, ToolDef

_PARAMETER = re.compile(r"<parameter=([^>\n\r<]*)>(.*?)</parameter>", re.DOTALL)
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# Faults after which the arguments are still complete (see the module doc).
RECOVERABLE = frozenset({"missing_opener", "missing_required", "unclosed_tag", "invalid_value"})
_INTERRUPTIONS = ("<parameter=", "</function>", "</tool_call>")


def _qwen_type(name: str) -> str | None:
    """The JSON type Qwen's reference parser gives a type name (its
    ``_convert_param_value``), or None for a name it leaves to literal_eval."""
    name = name.strip().lower()
    if name in ("string", "str", "text", "varchar", "char", "enum"):
        return "string"
    if name.startswith(("int", "uint", "long", "short", "unsigned")):
        return "integer"
    if name.startswith(("num", "float")):
        return "number"
    if name in ("boolean", "bool", "binary"):
        return "boolean"
    if name == "object" or name.startswith("dict"):
        return "object"
    if name in ("array", "arr") or name.startswith("list"):
        return "array"
    if name == "null":
        return "null"
    return None


def _declared(schema: Any) -> list[str]:
    if not isinstance(schema, Mapping):
        return []
    declared = schema.get("type")
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(names, list):
        return []
    return [t for t in (_qwen_type(n) for n in names if isinstance(n, str)) if t]


def _lenient(raw: str, type_name: str) -> tuple[bool, Any]:
    text = raw.strip()
    lowered = text.lower()
    if type_name == "integer" and _INTEGER.fullmatch(text):
        return True, int(text)
    if type_name == "number" and _NUMBER.fullmatch(text):
        number = float(text)
        return True, int(number) if number.is_integer() and abs(number) < 2**53 else number
    if type_name == "boolean" and lowered in ("true", "false"):
        return True, lowered == "true"
    if type_name == "null" and lowered in ("null", "none"):
        return True, None
    if type_name in ("object", "array", "string"):
        converted = convert_value(raw, {"type": type_name})
        if converted.ok:
            return True, converted.value
    return False, None


def value_alternatives(raw: str, schema: Any, root: Any = None) -> list[Any]:
    """The values a parameter written as ``raw`` may arrive as: toolwire's
    own reading first, then what a peer parser makes of it."""
    strict = convert_value(raw, schema, root if isinstance(root, Mapping) else None)
    found: list[Any] = [strict.value] if strict.ok else []
    if strict.ok and isinstance(strict.value, str):
        found.append(raw.strip())  # llama.cpp trims every value
    big = strict.value if strict.ok and not isinstance(strict.value, bool) else None
    if isinstance(big, int) and abs(big) > 2**53:
        found.append(float(big))  # llama.cpp keeps numbers as doubles
    peer_readings = 0
    for type_name in _declared(schema):
        ok, value = _lenient(raw, type_name)
        if ok:
            found.append(value)
            peer_readings += 1
    if raw.strip().lower() == "null":
        found.append(None)  # Qwen's parser reads "null" as null for any type
    typed = isinstance(schema, Mapping) and "type" in schema
    if not typed or not peer_readings:
        # Qwen's parser, vLLM and sglang agree: a schema without "type" (an enum
        # alone) reads as a string, and a value their typing cannot read
        # ("230.0" for an integer) falls back to its text (docs/rules/xml-peers.md).
        found.append(raw)
    return found


def raw_values(markup: str) -> dict[str, str]:
    """Each parameter's raw text in a call's markup (first one wins)."""
    values: dict[str, str] = {}
    for name, value in _PARAMETER.findall(markup):
        values.setdefault(name, strip_markup_newlines(value))
    return values


def accepted_arguments(markup: str, arguments: Any, tool: ToolDef | None) -> list[str] | None:
    """The parameters of ``arguments`` that no parser reads from ``markup``
    (missing, extra or another value); None when ``arguments`` is no object."""
    if not isinstance(arguments, Mapping):
        return None
    raws = raw_values(markup)
    wrong = [name for name in raws if name not in arguments]
    wrong += [name for name in arguments if name not in raws]
    for name, raw in raws.items():
        if name not in arguments:
            continue
        schema = parameter_schema(tool, name).schema if tool is not None else None
        choices = value_alternatives(raw, schema, parameters_root(tool))
        if not any(same_json(choice, arguments[name]) for choice in choices):
            wrong.append(name)
    return wrong


def tool_schema(tools: Sequence[ToolDef] | None, name: str | None) -> ToolDef | None:
    return ToolIndex(tools).find(name) if tools is not None and name else None


def _repaired(rejected: RejectedCall) -> str | None:
    """The block's text with its dropped tags put back, or None when a fault
    is not one a peer parser repairs."""
    text = rejected.raw
    inserts: list[tuple[int, str]] = []
    for issue in rejected.issues:
        if issue.code != "unclosed_tag":
            continue
        at = issue.offset - rejected.offset
        rest = text[at:]
        if issue.parameter is None or not rest.startswith(_INTERRUPTIONS):
            return None  # the input ended inside the call, or broken markup
        closer = "</parameter>\n"
        if rest.startswith("</tool_call>"):
            closer += "</function>\n"
        inserts.append((at, closer))
    for at, closer in sorted(inserts, reverse=True):
        text = text[:at] + closer + text[at:]
    if not text.lstrip().startswith("<tool_call>"):
        text = "<tool_call>\n" + text
    if not text.rstrip().endswith("</tool_call>"):
        text += "\n</tool_call>"
    return text


def recovered_call(rejected: RejectedCall, tools: Sequence[ToolDef] | None) -> ToolCall | None:
    """The complete call a rejected block stands for, if its arguments are
    whole (see the module doc); None when they would be partial."""
    if not {issue.code for issue in rejected.issues} <= RECOVERABLE:
        return None
    text = _repaired(rejected)
    if text is None:
        return None
    parse = parse_qwen_xml(text, tools)
    if len(parse.calls) + len(parse.rejected) != 1:
        return None
    if parse.calls:
        return parse.calls[0]  # its raw_arguments are the repaired markup
    again = parse.rejected[0]
    if {issue.code for issue in again.issues} - {"missing_required", "invalid_value"}:
        return None
    tool = tool_schema(tools, again.name)
    arguments: dict[str, Any] = {}
    for name, raw in raw_values(again.raw).items():
        schema = parameter_schema(tool, name).schema if tool is not None else None
        choices = value_alternatives(raw, schema, parameters_root(tool))
        if not choices:
            return None  # a value no parser reads as its type
        arguments[name] = choices[0]
    return ToolCall(id=None, name=again.name, arguments=arguments, raw_arguments=text)
