"""The bundled corpus: one vcrpy cassette per case, shipped as ``toolwire._corpus``."""
