"""The arbiter command line (Click). Thin: the engine does the work."""
