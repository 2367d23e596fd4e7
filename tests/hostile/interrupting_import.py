"""An adapter module that raises KeyboardInterrupt while it is imported (test_reading N10)."""

raise KeyboardInterrupt
