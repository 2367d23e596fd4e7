"""Adapters: the protocol a converter implements, and loading one from its spec."""

from toolwire.harness.adapters.base import UnsupportedConversion

__all__ = ["UnsupportedConversion"]
