"""The bundled corpus: one vcrpy cassette per case, shipped as ``harness._corpus``."""
