"""Issue 39, "Endings": every game ended by every way it can end, through the platform, as every seat reads it."""
