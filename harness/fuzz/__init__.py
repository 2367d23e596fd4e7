"""`toolwire fuzz`: generated exchanges through an adapter, failures shrunk.

``engine`` runs Hypothesis over ``toolwire.harness.strategies`` and the engine's
``run_case``; ``cases`` turns a plan into a case and a cassette; ``report``
prints and saves what was found. Needs the ``fuzz`` extra (Hypothesis).
"""
