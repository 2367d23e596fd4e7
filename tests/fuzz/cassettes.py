"""Mutated cassettes: real corpus cases broken in one way each, for the
readers of whole files (`toolwire lint`, `corpus add`, `corpus validate`).

A seed is one of the smallest bundled cases of each dialect, with and
without a stream. A mutation is one of:

- ``value``: one value of the YAML structure (anywhere: metadata, status,
  headers, a body) replaced by a hostile value, or its key deleted;
- ``body``: one value inside a JSON body (or inside one stream event)
  replaced by a hostile JSON value;
- ``text``: the YAML text itself cut, or given a fragment YAML gives meaning
  to (an anchor, an alias, a tag, a NUL, a tab, a document marker).

Hostile values include what broke the readers before (issue 16): an integer
of 5,000 digits, an alias bomb, 3,000 levels of nesting, a date where JSON
holds text, ``bytes`` (vcrpy's ``!!binary``), a negative or huge number
where a body belongs. The cassette is written as YAML, or as JSON (vcrpy's
other serializer) when the structure allows.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from tests.support.real_transcripts import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "corpus"
BIGINT = "@@BIGINT@@"
BOMB = "@@BOMB@@"
DEEP = "@@DEEP@@"
_PLACEHOLDERS = {
    BIGINT: "9" * 5000,
    BOMB: "[&la [lol, lol, lol, lol, lol, lol, lol, lol, lol], "
    + ", ".join(f"&l{chr(98 + i)} [" + ", ".join([f"*l{chr(97 + i)}"] * 9) + "]" for i in range(9))
    + "]",
    DEEP: "[" * 3000 + "]" * 3000,
}
_QUOTED = re.compile(r"""(['"]?)(@@(?:BIGINT|BOMB|DEEP)@@)\1""")

# YAML fragments a text mutation inserts: each means something to a parser.
YAML_FRAGMENTS = (
    "&a ",
    "*a",
    "*zz",
    "!!binary ",
    "!!python/object/apply:os.system ['true']",
    "!!set ",
    "!!timestamp ",
    "<<: *a\n",
    "\x00",
    "\t",
    "\ufeff",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "? ",
    ": ",
    "- ",
    "{",
    "}",
    "[",
    "]",
    "'",
    '"',
    "|",
    ">",
    "#",
    "\n",
    "2024-13-45",
    "2024-01-01",
    "-1",
    "1e999",
    ".nan",
    "~",
    "null",
    BIGINT,
    BOMB,
    DEEP,
)

_HOSTILE_SCALARS: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    10**10,
    1.5,
    float("nan"),
    float("inf"),
    "",
    "OK",
    "text/event-stream",
    "data: {}\n\n",
    "{",
    "null",
    "[DONE]",
    b"\x1f\x8b\x08\x00",
    b"{}",
    datetime.date(2024, 1, 1),
    BIGINT,
    BOMB,
    DEEP,
)

_JSON_HOSTILE: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1e308,
    "",
    "x",
    [],
    {},
    [None],
    {"type": None},
    BIGINT,
    DEEP,
)


@dataclass(frozen=True)
class Seed:
    """One bundled case: its id (the path it must have in a corpus) and YAML."""

    case_id: str
    text: str

    def data(self) -> Any:
        return yaml.safe_load(self.text)


def _seeds() -> tuple[Seed, ...]:
    """The smallest case of each dialect, streamed and not."""
    best: dict[tuple[str, bool], tuple[int, Path]] = {}
    for path in sorted(CORPUS.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        found = re.search(r"^  dialect: (\S+)", text, re.MULTILINE)
        if found is None:
            continue
        key = (found.group(1), "text/event-stream" in text)
        if key not in best or len(text) < best[key][0]:
            best[key] = (len(text), path)
    return tuple(
        Seed(path.relative_to(CORPUS).with_suffix("").as_posix(), path.read_text("utf-8"))
        for _, path in sorted(best.values(), key=lambda item: str(item[1]))
    )


SEEDS = _seeds()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (not the root)."""
    items: Any = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in items:
        yield (*prefix, key)
        yield from _paths(child, (*prefix, key))


def _set(root: Any, path: tuple[Any, ...], new: Any, delete: bool) -> None:
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new


def _body_slots(data: Any) -> list[tuple[Any, ...]]:
    """Paths to the body texts of a cassette structure."""
    slots: list[tuple[Any, ...]] = []
    interactions = data.get("interactions") if isinstance(data, dict) else None
    for index, item in enumerate(interactions if isinstance(interactions, list) else ()):
        if not isinstance(item, dict):
            continue
        request, response = item.get("request"), item.get("response")
        if isinstance(request, dict) and isinstance(request.get("body"), str):
            slots.append(("interactions", index, "request", "body"))
        body = response.get("body") if isinstance(response, dict) else None
        if isinstance(body, dict) and isinstance(body.get("string"), str):
            slots.append(("interactions", index, "response", "body", "string"))
    return slots


def _get(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        root = root[key]
    return root


def _mutated_json_text(draw: st.DrawFn, text: str) -> str:
    """A JSON body (or one event of a stream) with one value replaced."""
    if "\ndata:" in f"\n{text}":
        lines = text.split("\n")
        data_lines = [i for i, line in enumerate(lines) if line.startswith("data:")]
        if not data_lines:
            return text
        at = draw(st.sampled_from(data_lines))
        lines[at] = "data: " + _mutated_json_text(draw, lines[at][5:].strip())
        return "\n".join(lines)
    try:
        value = json.loads(text)
    except ValueError:
        return text
    paths = list(_paths(value))
    replacement = draw(st.sampled_from(_JSON_HOSTILE))
    if not paths:
        value = replacement
    else:
        _set(value, draw(st.sampled_from(paths)), replacement, delete=False)
    dumped = json.dumps(value)
    return dumped.replace(f'"{BIGINT}"', _PLACEHOLDERS[BIGINT]).replace(
        f'"{DEEP}"', _PLACEHOLDERS[DEEP]
    )


def _substitute(text: str) -> str:
    return _QUOTED.sub(lambda match: _PLACEHOLDERS[match.group(2)], text)


@dataclass(frozen=True)
class Mutant:
    """A mutated cassette: where it came from, how it was broken, and its text."""

    seed: Seed
    how: str
    text: str
    suffix: str  # ".yaml" or ".json"

    def __repr__(self) -> str:  # short: a failure report prints it
        head = self.text[:300].encode("unicode_escape").decode("ascii")
        return (
            f"Mutant({self.seed.case_id!r}, {self.how!r}, {self.suffix}, "
            f"{len(self.text)} characters: {head}...)"
        )


@st.composite
def mutated_cassettes(draw: st.DrawFn) -> Mutant:
    seed = draw(st.sampled_from(SEEDS))
    how = draw(st.sampled_from(("value", "body", "text")))
    if how == "text":
        text = seed.text
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(("cut", "insert", "replace")))
        if action == "cut":
            return Mutant(seed, f"cut at {at}", text[:at], ".yaml")
        fragment = draw(st.sampled_from(YAML_FRAGMENTS))
        end = at + (draw(st.integers(1, 8)) if action == "replace" else 0)
        text = _substitute(text[:at] + fragment + text[end:])
        return Mutant(seed, f"{action} {fragment[:20]!r} at {at}", text, ".yaml")
    data = copy.deepcopy(seed.data())
    if how == "body":
        slots = _body_slots(data)
        if not slots:
            return Mutant(seed, "unchanged", seed.text, ".yaml")
        slot = draw(st.sampled_from(slots))
        _set(data, slot, _mutated_json_text(draw, _get(data, slot)), delete=False)
        detail = f"body at {slot}"
    else:
        path = draw(st.sampled_from(list(_paths(data))))
        delete = draw(st.booleans())
        replacement = draw(st.sampled_from(_HOSTILE_SCALARS))
        _set(data, path, replacement, delete)
        detail = f"{'deleted' if delete else 'replaced'} {path} -> {replacement!r:.30}"
    if draw(st.booleans()):
        try:  # vcrpy's JSON serializer; not every YAML value has a JSON form
            return Mutant(seed, f"{detail} (json)", _substitute(json.dumps(data)), ".json")
        except (TypeError, ValueError):
            pass
    text = _substitute(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return Mutant(seed, detail, text, ".yaml")
