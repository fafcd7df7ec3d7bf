"""Pure rating library (Bradley–Terry with bootstrap) — see the ratings issue; no Django imports here."""
