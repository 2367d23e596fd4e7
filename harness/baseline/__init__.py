"""Baselines: reading a list of known failures, applying it to verdicts, writing one."""
