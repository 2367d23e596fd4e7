"""The corpus: case files (vcrpy cassettes plus a `toolwire:` block) and the
tools that read, check and write them. See docs/corpus-format.md.

- ``vocabulary``: the closed lists of the format;
- ``case``: ``Case``, ``Interaction``, ``Expect``, ``Provenance``;
- ``loader``: ``load_case``, ``load_corpus``, ``bundled_corpus_root``;
- ``validate``: ``validate_corpus`` (every problem, not just the first);
- ``secrets``: credentials a cassette must not hold;
- ``writer``: ``dump_case``, ``write_case``;
- ``summary``: a compact view of a case for people.
"""
