"""A cheap estimate of who is winning an unfinished Arctic Scavengers game (``ArcticState.evaluation``), for searches
that stop before the end instead of playing random moves to it.

The game is won by the most people over every card a tribe owns, so the estimate projects each tribe's final count:
the people it owns now, plus what the step in progress will surely bring (a hire being paid, the best card of a dig,
less the Refugees it is trashing), plus expected gains still to come: the contested resource of this round's
skirmish, shared by how strong each tribe's fighters are (the face-down cards once kept, else the hand), the
contested resources of later rounds, shared by each deck's fight per hand, and the mercenaries a deck's food and
medicine per hand can hire in the rounds left. Deck quality thus counts through what it is expected to win. The
projections are turned into shares by a softmax whose temperature (in people) falls as the contested pile runs out:
early, a lead of a few people is far from a win; in the last round it nearly is.

Cheap: sums over each tribe's cards, about 25 microseconds a position at two tribes. The evaluation reads the whole
state, hidden cards included: the search calls it on samples of a seat's information set, where they are drawn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .cards import CARDS, FIGHT, HUNT, LEADER, MERCENARIES, PERSON, TOOL, fight_strength

if TYPE_CHECKING:
    from .game import ArcticState

HAND = 5
# Per card: people, FIGHT it brings as a person (or None), FIGHT bonus as a tool/leader, HUNT likewise, medicine.
_STATS = {
    key: (card.people,
          card.base.get(FIGHT) if card.kind == PERSON and FIGHT in card.base else None,
          card.boosts(FIGHT) if card.kind in (TOOL, LEADER) else 0,
          card.base.get(HUNT) if card.kind == PERSON and HUNT in card.base else None,
          card.boosts(HUNT) if card.kind in (TOOL, LEADER) else 0,
          card.medicine)
    for key, card in CARDS.items()
}
# Mercenaries as (people, mixed cost, food cost, medicine cost), in supply order.
_HIRES = tuple((key, CARDS[key].people, CARDS[key].mixed_cost, CARDS[key].food_cost, CARDS[key].med_cost)
               for key in MERCENARIES)
# A won tool is worth this many people-equivalents (a strong tool wins later skirmishes; it scores nothing itself).
TOOL_PRIZE = 0.7
FIGHT_SCALE = 2.0  # softmax scale of this round's skirmish, in FIGHT points (how far a hand's fighters may change)
KEPT_SCALE = 0.5  # once every tribe's fighters are face down the result is nearly known (Saboteurs, Snipers aside)
# Later skirmishes: two hands of one deck differ by about this much FIGHT; and a deck changes before then, so only
# part of the prizes its present strength predicts is counted.
FUTURE_SCALE = 3.5
FUTURE_WEIGHT = 0.6
HIRE_RATE = 0.35  # mercenaries a future round brings, as a share of what a hand's expected food and medicine buys
TEMPERATURE = (1.5, 0.5)  # softmax temperature in people: first + second x contested resources still to come


def evaluate(state: ArcticState) -> list[float]:
    """Estimated scores of an unfinished state (the scores themselves once it is over)."""
    if state.is_terminal():
        return state.scores()
    n = state.game.num_seats
    fight_sum = state.game.options["gamebench_fight_sum"]
    acting = state.acting_seat()
    stats = [_deck(state.owned(s)) for s in range(n)]
    projected = [float(st[0]) for st in stats]  # people owned now
    _step_in_progress(state, acting, projected, stats, fight_sum)
    contested = state.contested
    future = contested
    if state.skirmish_round() and contested:
        _this_skirmish(state, acting, projected, fight_sum)
        future = contested[1:]
    if future:
        per_hand = [_fight_per_hand(st, fight_sum) for st in stats]
        shares = _softmax([f / FUTURE_SCALE for f in per_hand])
        prizes = FUTURE_WEIGHT * sum(_prize(k) for k in future)
        for s in range(n):
            projected[s] += shares[s] * prizes
    rounds_left = len(future)  # rounds after this one (each takes one contested resource)
    for s in range(n):
        food, medicine = _supplies_per_hand(stats[s])
        projected[s] += rounds_left * HIRE_RATE * _best_hire(state.supply, food, medicine)
    if state.game.options["tiebreak_skirmishes"]:  # a tie for most people goes to most skirmishes won
        for s in range(n):
            projected[s] += 0.1 * state.skirmishes_won[s]
    temperature = TEMPERATURE[0] + TEMPERATURE[1] * len(contested)
    return _softmax([p / temperature for p in projected])


def _deck(cards) -> list:
    """[people, cards, FIGHT of persons, fighters, FIGHT bonuses, bonus cards, HUNT of persons, hunters, HUNT
    bonuses, hunting bonus cards, medicine] over a multiset of cards."""
    people = fight = fighters = fmod = fmods = hunt = hunters = hmod = hmods = medicine = 0
    for key in cards:
        p, f, fm, h, hm, m = _STATS[key]
        people += p
        if f is not None:
            fight += f
            fighters += 1
        if fm:
            fmod += fm
            fmods += 1
        if h is not None:
            hunt += h
            hunters += 1
        if hm:
            hmod += hm
            hmods += 1
        medicine += m
    return [people, len(cards), fight, fighters, fmod, fmods, hunt, hunters, hmod, hmods, medicine]


def _carried(bonus: int, bonus_cards: int, carriers: int) -> float:
    """The part of the bonuses persons can carry (one tool or leader each), on average over hands."""
    if not bonus_cards:
        return 0.0
    return bonus * min(1.0, carriers / bonus_cards)


def _fight_per_hand(st: list, fight_sum: bool) -> float:
    if not st[1]:
        return 0.0
    bonus = st[4] if fight_sum else _carried(st[4], st[5], st[3])
    return HAND * (st[2] + bonus) / st[1]


def _supplies_per_hand(st: list) -> tuple[float, float]:
    if not st[1]:
        return 0.0, 0.0
    food = HAND * (st[6] + _carried(st[8], st[9], st[7])) / st[1]
    return food, HAND * st[10] / st[1]


def _best_hire(supply: dict, food: float, medicine: float) -> float:
    """People of the best mercenary this much food and medicine hires (fractions count pro rata, so that a deck
    with a little more food is worth a little more)."""
    best = 0.0
    for key, people, mixed, food_cost, med_cost in _HIRES:
        if supply[key] <= 0:
            continue
        if mixed:
            reach = (food + medicine) / mixed
        else:
            reach = min(food / food_cost if food_cost else 1.0, medicine / med_cost if med_cost else 1.0)
        if reach > 1.0:
            reach = 1.0
        value = people * reach * reach
        if value > best:
            best = value
    return best


def _prize(key: str) -> float:
    card = CARDS[key]
    return card.people if card.people else TOOL_PRIZE


def _step_in_progress(state, acting, projected, stats, fight_sum) -> None:
    """What the acting tribe's open step will bring: it cannot be undone once started."""
    if acting is None:
        return
    step = state.step
    mode = step.get("mode")
    if mode == "pay":  # the mercenary is as good as hired
        projected[acting] += CARDS[step["merc"]].people
    elif mode == "trash":  # chosen cards leave; trashed Refugees leave the game and its people with them
        projected[acting] -= sum(CARDS[k].people for k in step["cards"])
    elif mode == "dig" and step["cards"]:
        # The tribe keeps the dug card that helps it most: a person's people, else what it adds to fighting.
        base = _fight_per_hand(stats[acting], fight_sum)
        best = 0.0
        for key in set(step["cards"]):
            gain = CARDS[key].people + 0.3 * (_fight_per_hand(_deck_plus(stats[acting], key), fight_sum) - base)
            best = max(best, gain)
        projected[acting] += best
    if "HIRE" not in state.used and mode in (None, "build"):
        # Food gathered this turn buys a mercenary if the hire is still to come (medicine in hand helps pay).
        medicine = sum(CARDS[k].medicine for k in state.hands[acting])
        projected[acting] += 0.8 * _best_hire(state.supply, state.food, medicine)


def _deck_plus(st: list, key: str) -> list:
    more = list(st)
    p, f, fm, h, hm, m = _STATS[key]
    more[0] += p
    more[1] += 1
    if f is not None:
        more[2] += f
        more[3] += 1
    if fm:
        more[4] += fm
        more[5] += 1
    return more


def _this_skirmish(state, acting, projected, fight_sum) -> None:
    """This round's prize, shared by the fighters each tribe has (or is likely to keep)."""
    n = state.game.num_seats
    order = state.order()
    revealed = state.phase == "skirmish"
    strength = []
    for s in range(n):
        if revealed or state.kept[s] or (state.phase == "resource" and order.index(s) < state.turn_pos):
            strength.append(fight_strength(state.kept[s], not fight_sum))
        elif s == acting and state.step.get("mode") == "commit":
            strength.append(fight_strength(state.hands[s], not fight_sum))
        else:  # its turn is still to come: part of the hand may go on actions
            strength.append(0.8 * fight_strength(state.hands[s], not fight_sum))
    scale = KEPT_SCALE if revealed else FIGHT_SCALE
    shares = _softmax([v / scale for v in strength])
    prize = _prize(state.contested[0])
    for s in range(n):
        projected[s] += shares[s] * prize


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
