"""A cheap estimate of who is winning an unfinished game of Air, Land & Sea (``AirLandSeaState.evaluation``), for
searches that stop before the end instead of playing random moves to it.

Two layers. The battle on the table: each theater's strength margin (ties to the 1st Player) plus what the cards
still in hand could add there (a card's printed strength in its own theater, a face-down 2 or 4 anywhere), judged
against how many cards are left to come, gives a chance to hold that theater; holding two of three wins the battle.
The game: a race to the target VP, read from a table (``race``) of the chance to win it (or, under
``gamebench_vp_share_scores``, the expected share of the VP) from any two totals when future battles are even.
The battle's winner scores at least what the loser would concede by withdrawing now (the Supreme Commander
chart, by the cards left in the loser's hand) and up to the 6 VP of a battle played out, so a lost battle is
never worth less than withdrawing from it, and withdrawing from a battle that is going badly is worth something.

A sample's hidden cards (the other hand, face-down cards) are read as they were drawn: the estimate is a function
of the state alone. Cheap: the three theaters' totals and a look at both hands, about 20 microseconds a position
(half a clone of the state).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from . import board
from .cards import BATTLE_WIN_VP, BOOSTED_STRENGTH, CARDS, ESCALATION, FACE_DOWN_STRENGTH, withdraw_points

if TYPE_CHECKING:
    from .state import AirLandSeaState

TIE = 0.5  # a tied theater goes to the 1st Player: half a point of margin
HAND_WEIGHT = 0.5  # share of a hand card's possible strength in a theater counted toward its margin now
SIGMA = 1.0  # how uncertain a theater's margin is with no card left to play
SIGMA_PER_CARD = 0.8  # ... and more per card still in either hand
PLAYED_OUT = 0.5  # how far the battle's winner gets from the loser's withdrawal value toward the full 6 VP
# A future battle, even for both seats: its winner scores 6 VP (played out) or what a withdrawal gives (2 to 4 on
# the charts); spread over the chart's values so that every VP of a lead counts, not only whole battles.
FUTURE_BATTLE = ((BATTLE_WIN_VP, 0.5), (4, 0.2), (3, 0.2), (2, 0.1))


def evaluate(state: AirLandSeaState) -> list[float]:
    """Estimated scores [seat 0, seat 1]; the scores themselves once the game is over."""
    if state.is_terminal():
        return state.scores()
    options = state.game.options
    table = race(options["target_vp"], options["gamebench_vp_share_scores"])
    vp0, vp1 = state.vp
    in_hand = len(state.hands[0]) + len(state.hands[1])
    if options["action_cap"] - len(state.log) <= in_hand:
        return _at_cap(state)  # the platform's cap comes first: the VP as they stand decide
    if state.between:
        p = table(vp0, vp1)
    else:
        win = battle_chance(state)
        first = state.first
        # What each seat scores if it wins the battle: between the other's withdrawal value now and a full battle.
        gain = [withdraw_points(1 - s == first, len(state.hands[1 - s])) for s in (0, 1)]
        gain = [g + PLAYED_OUT * (BATTLE_WIN_VP - g) for g in gain]
        p = win * table(vp0 + gain[0], vp1) + (1.0 - win) * table(vp0, vp1 + gain[1])
    return [p, 1.0 - p]


def battle_chance(state: AirLandSeaState) -> float:
    """Seat 0's chance to win the battle on the table by holding two theaters of three."""
    stacks, first = state.stacks, state.first
    ups = board.face_up_map(stacks)
    down = [BOOSTED_STRENGTH if board.face_up_anywhere(stacks, ESCALATION, s, ups) else FACE_DOWN_STRENGTH
            for s in (0, 1)]
    cards_left = len(state.hands[0]) + len(state.hands[1])
    sigma = SIGMA + SIGMA_PER_CARD * cards_left
    held = []
    for pos, theater in enumerate(state.theaters):
        margin = board.total(stacks, pos, 0, ups) - board.total(stacks, pos, 1, ups)
        margin += TIE if first == 0 else -TIE
        margin += HAND_WEIGHT * (_reach(state.hands[0], theater, down[0]) - _reach(state.hands[1], theater, down[1]))
        held.append(1.0 / (1.0 + math.exp(-margin / sigma)))
    a, b, c = held
    return a * b + a * c + b * c - 2.0 * a * b * c


def _reach(hand: list[str], theater: str, down: int) -> float:
    """What a hand could add to one theater, per card: its strength face up in its own theater, else a third of
    a face-down card (which may go to any of the three)."""
    return sum(CARDS[c].strength if c[0] == theater else down / 3.0 for c in hand)


def _at_cap(state: AirLandSeaState) -> list[float]:
    """The scores the action cap gives on the VP as they stand (as ``scores`` does at the cap)."""
    vp0, vp1 = state.vp
    if state.game.options["gamebench_vp_share_scores"]:
        return [vp0 / (vp0 + vp1), vp1 / (vp0 + vp1)] if vp0 + vp1 else [0.5, 0.5]
    return [0.5, 0.5] if vp0 == vp1 else ([1.0, 0.0] if vp0 > vp1 else [0.0, 1.0])


@lru_cache(maxsize=8)
def race(target: int, vp_share: bool):
    """Seat 0's expected score from VP totals (a, b) when every battle to come is even (``FUTURE_BATTLE``): the
    chance to reach ``target`` first, or (``vp_share``) the expected share of the VP when someone does. A
    function of (a, b), exact on a grid of whole VP and interpolated in between (a battle's gain here is fractional)."""
    top = target + BATTLE_WIN_VP
    memo: dict[tuple[int, int], float] = {}

    def value(a: int, b: int) -> float:
        if a >= target or b >= target:
            if vp_share:
                return a / (a + b)
            return 1.0 if a >= target else 0.0
        key = (a, b)
        if key not in memo:
            memo[key] = sum(0.5 * chance * (value(min(a + vp, top), b) + value(a, min(b + vp, top)))
                            for vp, chance in FUTURE_BATTLE)
        return memo[key]

    grid = [[value(a, b) for b in range(top + 1)] for a in range(top + 1)]

    def lookup(a: float, b: float) -> float:
        a, b = min(a, top), min(b, top)
        i, j = min(int(a), top - 1), min(int(b), top - 1)
        fa, fb = a - i, b - j
        return ((1 - fa) * (1 - fb) * grid[i][j] + fa * (1 - fb) * grid[i + 1][j]
                + (1 - fa) * fb * grid[i][j + 1] + fa * fb * grid[i + 1][j + 1])

    return lookup
