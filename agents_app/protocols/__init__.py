"""Benchmark protocols: a file says what to run (agents, games, seeds, rating method, prices); ``run_protocol`` runs
it as tournaments on the workers and writes the report (schema: the file; services: the run; selectors: its reads;
report: the tables and their provenance)."""
