"""Sizes of the fuzz tests: small for `make test`, larger on demand.

``TOOLWIRE_FUZZ_EXAMPLES=10000 pytest tests/fuzz`` runs the reference
adapter over that many generated exchanges (docs/fuzzing.md);
``TOOLWIRE_FUZZ_SEED`` changes the seed of the generated exchanges.
"""

from __future__ import annotations

import os

FUZZ_EXAMPLES = int(os.environ.get("TOOLWIRE_FUZZ_EXAMPLES", "200"))
FUZZ_SEED = int(os.environ.get("TOOLWIRE_FUZZ_SEED", "20250601"))
# Examples per hostile-input property (codecs, XML parser, lint).
HOSTILE_EXAMPLES = int(os.environ.get("TOOLWIRE_HOSTILE_EXAMPLES", "100"))
