"""Reading a results file: JSON, the right kind of document, a known format, schema-valid.

Every problem is one ``ResultsFileError`` line naming the file and the fix;
a report is never rendered from a document the schema rejects.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.errors import ToolwireError
from toolwire.harness.results.document import RESULTS_FORMAT

SCHEMA_RESOURCE = "results.schema.json"
PRODUCE_HINT = (
    "write one with `toolwire run --report-dir DIR` (DIR/results.json) or `--format json`"
)


class ResultsFileError(ToolwireError):
    """A results file cannot be used: missing, not JSON, or not a results document."""

    exit_code = 2


def schema_text() -> str:
    """The published JSON Schema of the results document, as shipped."""
    return files("toolwire.harness.reports").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")


@cache
def results_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


def read_results(path: Path) -> dict[str, Any]:
    """Load and check the results file at ``path``."""
    source = str(path)
    if not path.exists():
        raise ResultsFileError(f"{source}: no such results file", PRODUCE_HINT)
    if path.is_dir():
        raise ResultsFileError(
            f"{source}: is a folder, not a results file", f"pass {path / 'results.json'}"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ResultsFileError(f"{source}: is not UTF-8 text", PRODUCE_HINT) from None
    except OSError as error:
        raise ResultsFileError(f"{source}: cannot be read: {error.strerror}") from None
    try:
        document = json_text.loads(text)
    except json.JSONDecodeError as error:
        raise ResultsFileError(
            f"{source}: is not JSON ({error.msg} at line {error.lineno} column {error.colno})",
            PRODUCE_HINT,
        ) from None
    except RecursionError:
        raise ResultsFileError(
            f"{source}: nests deeper than toolwire can read", PRODUCE_HINT
        ) from None
    except ValueError:  # the only other refusal: an integer past Python's digit limit
        raise ResultsFileError(
            f"{source}: holds an integer of more than 4,300 digits", PRODUCE_HINT
        ) from None
    return check_results(document, source)


def check_results(document: Any, source: str = "results") -> dict[str, Any]:
    """``document`` when it is a results document this toolwire can read."""
    if not isinstance(document, dict) or "format" not in document or "verdicts" not in document:
        raise ResultsFileError(
            f"{source}: is not a toolwire results document (no `format` and `verdicts`)",
            PRODUCE_HINT,
        )
    found = document["format"]
    if found != RESULTS_FORMAT:
        newer = isinstance(found, int) and found > RESULTS_FORMAT
        raise ResultsFileError(
            f"{source}: results format {found!r} is not {RESULTS_FORMAT}, the one this "
            "toolwire reads",
            "upgrade toolwire" if newer else "rerun `toolwire run` to write it afresh",
        )
    from jsonschema import Draft202012Validator  # imported here: only reports need it

    validator = Draft202012Validator(results_schema())
    problem = min(validator.iter_errors(document), key=_error_order, default=None)
    if problem is not None:
        where = _json_path(problem.absolute_path)
        raise ResultsFileError(
            f"{source}: does not match the results schema at {where}: {_short(problem.message)}",
            "`toolwire run --schema` prints the schema",
        )
    return document


def _error_order(error: Any) -> tuple[int, str]:
    # The shallowest error first: it names the outermost thing that is wrong.
    return (len(error.absolute_path), str(list(error.absolute_path)))


def _json_path(parts: Any) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _short(text: str, limit: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."
