"""Simulated participants that walk a study over the real HTTP and websocket paths (run_study_bots).

client: one browser-like HTTP session per bot (cookies, CSRF, forms read with html.parser).
player: plays one round over the match websocket (refusals answered with another move, never the same frame again).
policies: how a bot chooses its move: a seeded random legal move of any game (free text: the engine's example), or
    the simulated Gnomes partner.
journey: one participant from the study link to the completion code.
server: a daphne subprocess against the current database, for runs without --url.
"""
