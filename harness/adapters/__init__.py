"""toolwire."""

from harness.adapters.base import UnsupportedConversion

__all__ = ["UnsupportedConversion"]
