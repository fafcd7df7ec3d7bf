"""Atari Boxing rules text for people and for agents (written for this project from the game's description)."""

from __future__ import annotations

from ..api import Rules

RULES = Rules(
    summary=(
        "Real-time two-player boxing seen from above: a 2-minute bout between White and Black in a square "
        "ring. The game runs at 60 frames a second; at each decision point both players choose one of 18 "
        "joystick actions at the same time (neither sees the other's choice until both are in): move in one of "
        "8 directions or stay, with or without punching. The pair is then held for a fixed number of frames. A "
        "landed long jab scores 1 point, a close power punch 2; 100 points is a knockout and ends the bout at "
        "once. Otherwise the higher score when the clock reaches 0:00 wins, and equal scores are a draw."
    ),
    topics={
        "controls": (
            "Actions are named after the joystick: up, down, left, right and the four diagonals (upright, "
            "upleft, downright, downleft) move your boxer; fire throws a punch; a direction plus fire (e.g. "
            "upfire) moves and punches; noop stays still. Up is towards the top of the screen (smaller y), right "
            "towards larger x. A punch takes a moment to land and pull back, so punching every decision point is "
            "not always faster."
        ),
        "scoring": (
            "A punch that lands on the opponent's head scores: 1 point for a long jab, 2 for a close power punch. "
            "Punches that meet the opponent's gloves score nothing. A landed punch knocks the opponent back a "
            "little. The first boxer to 100 points wins by knockout; otherwise the score at 0:00 decides, and a "
            "tie is a draw (each side scores 0.5)."
        ),
        "positioning": (
            "Boxers are seen from above with their arms reaching sideways and slightly up or down, so punches "
            "land when the opponent is level with your glove: a few pixels above or below you and about 15 to 25 "
            "pixels away horizontally. Standing exactly level or too far away misses. Pinning an opponent "
            "against the ropes (the edge of the ring) keeps them from backing away; avoid being pinned yourself."
        ),
        "timing": (
            "The bout is 2:00 of game time (about 7,140 frames). Choices are made only at decision points, every "
            "k frames (15 unless the match sets otherwise, a quarter of a second; 5 in a live bout with a person). "
            "A player who does not choose in time keeps doing what they did at the previous decision point. In a "
            "live match the game runs at full speed and the key you hold at each decision point is your choice."
        ),
    },
)
