"""Qwen3-Coder XML: toolwire's oracle set beside the real parsers' own test cases."""
