"""toolwire."""
