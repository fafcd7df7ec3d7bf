"""Dialogue games (seed 004): the solver pipeline (game tree over instructions, CFR and PSRO with open_spiel) and
the solver-guided language-model agent with its unguided control."""
