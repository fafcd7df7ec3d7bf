"""Evaluations beyond play: the Who is Spy probes and metrics (seed 002), the deep evaluation's stored model calls."""
