"""toolwire."""

from toolwire.harness.adapters.base import UnsupportedConversion

__all__ = ["UnsupportedConversion"]
