"""A corpus N times the size of another: copies of every case under new ids.

Copy ``k`` of case ``single-tool/weather-openai`` is ``copy<k>/single-tool/weather-openai``,
and its twins point at the twins of the same copy, so every copy is a
complete corpus of its own and a scaled run does N times the same work.
Cases are written with the project's own writer (bodies byte for byte).
"""

from __future__ import annotations

from pathlib import Path

from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.corpus.writer import case_metadata, dump_case, write_case


def scaled_corpus(source: Path, target: Path, copies: int) -> int:
    """Write ``copies`` copies of the corpus at ``source`` below ``target``; return the cases."""
    corpus = load_corpus(source)
    written = 0
    for case in corpus:
        metadata = case_metadata(case)
        for copy in range(copies):
            prefix = f"copy{copy}/"
            block = dict(metadata)
            block["id"] = prefix + case.id
            if "twins" in block:
                block["twins"] = {
                    dialect: prefix + twin for dialect, twin in block["twins"].items()
                }
            text = dump_case(block, case.interactions, pretty_json=False)
            write_case(target / f"{block['id']}.yaml", text, overwrite=True)
            written += 1
    return written
