"""``python -m toolwire.conformance.pages docs/rules``: write the rule pages."""

import sys
from pathlib import Path

from toolwire.conformance.pages.docgen import write_all

for path in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules")):
    print(path)
