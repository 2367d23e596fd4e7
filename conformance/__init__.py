"""toolwire's conformance rules: permanent codes, levels, and the documentation they rest on."""
