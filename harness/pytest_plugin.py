"""toolwire pytest plugin (filled in by the referee issue)."""
