"""The results document a run writes, the source of truth every report is rendered from."""
