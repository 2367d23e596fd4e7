"""Shims that drive third-party converters (installed as optional extras) through
toolwire's adapter protocol, offline. Each module imports its library only
inside its methods, so toolwire itself never needs them."""
