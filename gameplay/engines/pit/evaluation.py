"""A cheap estimate of who is winning an unfinished Pit game (``PitState.evaluation``), for searches that stop before
the end instead of playing random moves to it (a random game lasts about 1,600 actions).

Points come only from corners, so the estimate projects each seat's total: its points so far plus what the hand in
play may bring it. A seat's chance of cornering a commodity falls off geometrically with the cards it still needs
(the Bull counts as one of them where it is wild; the classic Bear, which blocks a corner until traded away, halves
it), and is cut when the hand's ticks left are too few to trade that many cards; the seat counts its best commodity
by chance times points. Bull and Bear holders lose their penalty times the chance that somebody corners.

Projections become shares as the game's options score the end: for the highest total (the default), a softmax
whose temperature in points shrinks as hands run out (the hands left, or fewer when the leader is a few corners
from the target), so a lead of one corner is worth more late than early; for GameBench's shared scores, each
seat's share of the positive points with a pseudo-count of the points still to come added to every seat.

Cheap: a few operations per seat and commodity, under 10 microseconds a position at three seats. It reads every
hand: the search calls it on samples of a seat's information set, where the other hands are drawn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .cards import BEAR, BULL, SPECIAL_PENALTY, VALUES
from .market import corner_value

if TYPE_CHECKING:
    from .game import PitState

CORNER_NOW = 0.9  # a seat holding a corner calls it on its next action, unless the hand ends first
PER_CARD = 0.55  # chance kept per card still needed
TICKS_PER_CARD = 2.0  # ticks a missing card takes to trade for, at best
BEAR_BLOCK = 0.5  # the classic Bear blocks a corner until it is traded away
CORNER_POINTS = 80.0  # a typical corner, to count the hands a leader still needs to reach the target
TEMPERATURE = (25.0, 15.0)  # points: first + second x sqrt(hands still to come after this one)
PSEUDO_POINTS = 40.0  # GameBench's shares: points every seat may still score per hand to come


def evaluate(state: PitState) -> list[float]:
    """Estimated scores of an unfinished state (the scores themselves once it is over)."""
    if state.finished:
        return state.scores()
    game = state.game
    options = game.options
    market = game.market
    n = game.num_seats
    size = market.corner_size
    wild = options["bull_and_bear"]
    blocks = wild and not market.bear_penalises_corner
    ticks_left = options["tick_cap"] - state.tick + 1
    chances, gains = [0.0] * n, [0.0] * n
    for s, hand in enumerate(state.hands):
        bull = 1 if wild and hand.get(BULL) else 0
        bear = wild and hand.get(BEAR)
        best_gain = best_chance = 0.0
        for commodity in market.commodities:
            held = hand.get(commodity, 0)
            need = size - held - bull
            if need <= 0:
                value = corner_value(market, hand, commodity)
                chance = CORNER_NOW
            else:
                value = VALUES[commodity]
                chance = PER_CARD ** need
                if ticks_left < TICKS_PER_CARD * need:
                    chance *= ticks_left / (TICKS_PER_CARD * need)
            if bear and blocks:
                chance *= BEAR_BLOCK
            gain = chance * value
            if gain > best_gain:
                best_gain, best_chance = gain, chance
        if bear and market.bear_penalises_corner:  # GameBench: the cornering hand pays for its Bear
            best_gain -= best_chance * SPECIAL_PENALTY
        chances[s], gains[s] = best_chance, best_gain
    nobody = 1.0
    for chance in chances:
        nobody *= 1.0 - chance
    anybody = 1.0 - nobody
    projected = [float(t) for t in state.totals]
    for s, hand in enumerate(state.hands):
        projected[s] += gains[s]
        if wild and not market.bear_penalises_corner:
            if hand.get(BEAR):
                projected[s] -= anybody * SPECIAL_PENALTY
            if hand.get(BULL):  # lost unless it is the seat's own corner
                projected[s] -= max(0.0, anybody - chances[s]) * SPECIAL_PENALTY
    hands_after = options["max_hands"] - state.hands_played - 1
    to_target = (options["target"] - max(state.totals)) / CORNER_POINTS
    hands_after = max(0.0, min(float(hands_after), to_target))
    if options["gamebench_share_scores"]:
        pseudo = PSEUDO_POINTS * hands_after + 1.0
        positive = [max(p, 0.0) + pseudo for p in projected]
        total = sum(positive)
        return [p / total for p in positive]
    temperature = TEMPERATURE[0] + TEMPERATURE[1] * math.sqrt(hands_after)
    top = max(projected)
    weights = [math.exp((p - top) / temperature) for p in projected]
    total = sum(weights)
    return [w / total for w in weights]
