"""Gnomes at Night agents: the AISMCTS-F planner, its language module, and the mute control."""
