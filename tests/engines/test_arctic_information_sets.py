"""Arctic Scavengers' information-set sampler (gameplay/engines/arctic_scavengers/sampling.py): what is public (each
tribe's cards, discard piles, the junkyard's other cards) and what the seat saw (its digs, its peek, a hand known
once a deck ran out) stays true in its samples, the rest is drawn anew, and the bounds (knowledge.py) hold over
random play. The shared conformance of samplers is tests/engines/test_information_sets.py."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from gameplay.engines.arctic_scavengers import ArcticGame, sampling
from gameplay.engines.arctic_scavengers.knowledge import CONTESTED_KINDS

from .arctic_support import act, new_state, pass_round, to_skirmish_round
from .information_sets import check_sample, play_on


def samples(state, seat, count=30):
    return [state.sample_information_state(seat, random.Random(i)) for i in range(count)]


def dug_cards(state):
    return state.step["cards"] if state.step.get("mode") == "dig" else []


def test_a_hand_is_known_to_all_once_its_deck_ran_out():
    state = new_state(2, seed=3)
    pass_round(state)  # round 2 draws the last five cards of each ten-card deck
    assert state.round == 2 and all(not deck for deck in state.decks)
    other = 1 - state.current_seats()[0]
    assert all(sorted(s.hands[other]) == sorted(state.hands[other]) for s in samples(state, 1 - other))
    pass_round(state)  # round 3 reshuffles each discard pile: the new hand is unknown
    assert len({tuple(s.hands[other]) for s in samples(state, 1 - other)}) > 1


def digging_state():
    """Round 1, the first seat digs three junkyard cards (a Shovel carried by a Scavenger or Brawler)."""
    for seed in range(100):
        state = new_state(2, seed=seed)
        hand = state.hands[state.current_seats()[0]]
        person = next((k for k in ("scavenger", "brawler") if k in hand), None)
        if person and "shovel" in hand:
            act(state, "dig", f"add:{person}", "add:shovel", "go")
            assert len(dug_cards(state)) == 3
            return state
    raise AssertionError("no seed deals a Shovel and a digger")


def test_a_dig_is_seen_by_its_digger_only_and_its_returned_cards_stay_at_the_bottom():
    state = digging_state()
    digger = state.current_seats()[0]
    other = 1 - digger
    assert all(dug_cards(s) == dug_cards(state) for s in samples(state, digger))
    assert len({tuple(dug_cards(s)) for s in samples(state, other)}) > 1
    check_sample(state, other)
    act(state, f"dig_keep:{dug_cards(state)[0]}")
    bottom = state.junkyard[-2:]
    assert all(s.junkyard[-2:] == bottom for s in samples(state, digger))
    assert any(s.junkyard[-2:] != bottom for s in samples(state, other))
    check_sample(state, digger)


def test_the_initiator_keeps_its_peek_and_the_others_draw_it():
    state = new_state(3, seed=5)
    to_skirmish_round(state)
    initiator = state.initiator
    assert all(s.contested[0] == state.peek == s.peek for s in samples(state, initiator))
    drawn = samples(state, (initiator + 1) % 3)
    assert all(s.peek == s.contested[0] for s in drawn) and len({s.peek for s in drawn}) > 1


def test_a_prize_nobody_won_is_known_to_be_in_the_junkyard_by_the_initiator_only():
    state = new_state(2, seed=2)
    to_skirmish_round(state)
    initiator, prize = state.initiator, state.peek
    while state.round == 3:  # everyone drops every card: no strength, no people, nobody wins
        seat = state.current_seats()[0]
        ids = [a.id for a in state.legal_actions(seat)]
        act(state, next((i for i in ids if i.startswith("drop:")), "keep" if "keep" in ids else
                        "end_turn" if "end_turn" in ids else "skirmish_done"))
    assert state.last_skirmish["winner"] is None
    assert prize in state.junk_known[initiator][1] and prize not in state.junk_known[1 - initiator][1]
    for sample in samples(state, initiator):
        assert Counter(sample.junkyard)[prize] >= 1
    check_sample(state, 1 - initiator)


@pytest.mark.parametrize("tries", [sampling.TRIES, 0])
def test_the_acting_tribes_sampled_hand_can_finish_its_open_step(tries, monkeypatch):
    """A tribe paying medicine for a hire, or that opened DRAW/DIG/HUNT without adding a person yet, showed it
    holds what that takes; its sampled hand does too (0 tries: the needed cards are put in first)."""
    monkeypatch.setattr(sampling, "TRIES", tries)
    found = Counter()
    for seed in range(12):
        state = new_state(3, seed=seed, contested_count=2)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            mode = state.step.get("mode")
            if mode == "pay" or mode == "build" and not state.step["cards"]:
                found[mode] += 1
                for sample in samples(state, (seat + 1) % 3, 4):
                    assert sample.legal_actions(seat)
                play_on(sample, random.Random(seed), limit=10)
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    assert found["pay"] >= 3 and found["build"] >= 3, found


def _check_bounds(state):
    n = state.game.num_seats
    for p in range(n):
        holding = state.hands[p] or (state.kept[p] if not state.revealed else [])
        assert not Counter(state.held_known[p]) - Counter(holding)
    junkyard = dug_cards(state) + state.junkyard
    for positions, extra in state.junk_known:
        known = list(zip(positions or [None] * len(junkyard), junkyard, strict=True))  # []: it knows no place
        assert all(k is None or k == j for k, j in known)
        unplaced = Counter(j for k, j in known if k is None)
        assert not Counter(extra) - unplaced


@pytest.mark.parametrize("seats,options", [(2, {}), (3, {"gamebench_rounds": True}), (5, {"contested_count": 5})])
def test_bounds_hold_and_samples_keep_what_is_public_over_random_play(seats, options):
    def others(cards):
        return Counter(k for k in cards if k not in CONTESTED_KINDS)

    for seed in range(2):
        state = ArcticGame(options, seats).new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
            _check_bounds(state)
            step += 1
            if step % 11:
                continue
            before = json.dumps(state.to_json())
            sample = state.sample_information_state(step % seats, random.Random(step))
            _check_bounds(sample)
            play_on(sample, random.Random(step), limit=20)  # a sample shares nothing with its state
            assert json.dumps(state.to_json()) == before
            sample = state.sample_information_state(step % seats, random.Random(step))
            for p in range(seats):
                assert Counter(sample.owned(p)) == Counter(state.owned(p))
                assert [len(z[p]) for z in (sample.hands, sample.kept, sample.decks)] == \
                    [len(z[p]) for z in (state.hands, state.kept, state.decks)]
            assert others(dug_cards(sample) + sample.junkyard) == others(dug_cards(state) + state.junkyard)
            assert len(sample.junkyard) == len(state.junkyard) and len(sample.contested) == len(state.contested)
            assert sample.legal_actions(sample.current_seats()[0]) if sample.current_seats() else True


def test_a_state_stored_before_the_bounds_were_kept_still_loads():
    state = digging_state()
    data = json.loads(json.dumps(state.to_json()))
    del data["payload"]["held_known"], data["payload"]["junk_known"]
    restored = state.game.state_from_json(data)
    assert restored.held_known == [[], []] and restored.junk_known == [[[], []], [[], []]]
    check_sample(restored, restored.current_seats()[0])  # the digger still sees its dug cards in its samples
