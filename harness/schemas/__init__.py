"""JSON Schemas of each dialect's request and response, written from the providers' documentation.

One draft 2020-12 schema per dialect and payload kind ships as package data
(``<dialect>.request.json``, ``<dialect>.response.json`` and the data of one
stream event, ``<dialect>.stream-chunk.json`` or
``anthropic-messages.stream-event.json``). Each file cites its documentation
pages in a top-level ``$comment``; ``docs/schemas.md`` lists every deliberate
loosening. The schemas are strict on what the APIs reject (required fields,
closed role sets, argument and input types, id and name patterns) and accept
the extra fields real servers add.

``validate_payload(dialect, kind, payload)`` returns the violations in path
order; it backs the ``schema.request`` and ``schema.response`` rules.
"""

from toolwire.harness.schemas.loading import (
    all_schemas,
    load_schema,
    schema_file_name,
    schema_registry,
)
from toolwire.harness.schemas.validate import (
    MAX_MESSAGE_CHARS,
    SchemaViolation,
    format_json_path,
    validate_payload,
)

__all__ = [
    "MAX_MESSAGE_CHARS",
    "SchemaViolation",
    "all_schemas",
    "format_json_path",
    "load_schema",
    "schema_file_name",
    "schema_registry",
    "validate_payload",
]
