"""An adapter module whose import fails quoting a key (tests/hostile/test_secrets_leak.py)."""

from tests.hostile.fake_keys import openai_project_key

raise ImportError(f"cannot configure the client with {openai_project_key()}")
