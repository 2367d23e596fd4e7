"""Shared readings of payloads (views, timeline, paths, semantic equality,
schema meaning, conventions) that rules import; nothing here imports a rule."""
