"""Two Rooms and a Boom's information-set sampler beyond the shared checks (tests/engines/information_sets.py, which
test_information_sets.py runs at 6 and 7 seats): the same checks at more seats and with every option; a sample keeps
the cards and colours shares and reveals showed its seat, the Gambler once it bets, and deals the rest uniformly (in
GameBench's version the seat's own card too, within its colour); what others did out of its sight leaves placeholders
and hidden log records, and the other room's pending hostage choice is drawn anew."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gameplay.engines.api import HIDDEN_ACTION
from gameplay.engines.two_rooms_and_a_boom import TwoRoomsGame
from gameplay.engines.two_rooms_and_a_boom.cards import BLUE, BOMBER, GAMBLER, PRESIDENT, RED, team_of
from tests.engines.evaluation_support import containers

from .information_sets import check_information_sets

SAMPLES = 300


def new_state(seats, seed=0, options=None):
    return TwoRoomsGame(options or {}, seats).new_initial_state(seed)


def act(state, seat, action_id, text=None):
    """Let ``seat`` take its next talk action now (tests jump the rotating order to it)."""
    state.cursor = state.order.index(seat)
    state.apply_action(seat, action_id, text)


def samples(state, seat, count=SAMPLES):
    rng = random.Random(seat)
    return [state.sample_information_state(seat, rng) for _ in range(count)]


def play_random(state, rng, until):
    while not until(state):
        seat = state.current_seats()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    return state


@pytest.mark.parametrize("seats,options", [
    pytest.param(8, {"parley_messages": 2}, id="8-parley-2"),
    pytest.param(9, {"parley_messages": 0}, id="9-no-parley"),
    pytest.param(11, {}, id="11"),
    pytest.param(6, {"gamebench_simplified": True}, id="6-gamebench"),
])
def test_the_shared_checks_hold_at_more_seats_and_with_every_option(seats, options):
    assert check_information_sets(TwoRoomsGame(options, seats), seed=seats, every=8, steps=100)


def test_with_no_knowledge_the_other_cards_are_dealt_uniformly():
    state = new_state(7, 2)
    seat = state.cards.index(RED)
    presidents = Counter()
    for sample in samples(state, seat):
        assert sample.cards[seat] == RED and Counter(sample.cards) == Counter(state.cards)
        presidents[sample.cards.index(PRESIDENT)] += 1
    assert set(presidents) == set(range(7)) - {seat} and all(25 < count < 75 for count in presidents.values())


def test_shares_and_reveals_keep_what_they_showed_and_only_that():
    state = new_state(7, 3)
    a, b, c = state.members(0)[:3]
    rest = iter([PRESIDENT, BLUE, RED, GAMBLER])
    state.cards = [{a: RED, b: BLUE, c: BOMBER}.get(s) or next(rest) for s in range(7)]
    act(state, a, f"offer_share:{b}:color")
    act(state, b, f"accept_share:{a}")
    act(state, c, "reveal_public")
    blue_cards = Counter()
    for sample in samples(state, a):
        assert sample.cards[a] == RED and sample.cards[c] == BOMBER and team_of(sample.cards[b]) == BLUE
        blue_cards[sample.cards[b]] += 1
        assert sample.known[a] == state.known[a] and sample.known[b][str(a)] == "color"
        share = next(e for e in sample.events if e["k"] == "share")
        assert (share["ca"], share["cb"]) == (sample.cards[a], sample.cards[b])
    assert 70 < blue_cards[PRESIDENT] < 130  # one Blue card in three is the President


def test_what_others_did_out_of_sight_leaves_a_placeholder_and_a_hidden_record():
    state = new_state(8, 4)
    a, b, c = state.members(0)[:3]
    d, e = state.members(1)[:2]
    act(state, a, f"whisper:{b}", "the plan")
    act(state, b, f"offer_share:{c}:card")
    act(state, c, f"offer_share:{a}:card")
    act(state, d, f"nominate_leader:{e}")  # public
    act(state, d, f"offer_share:{e}:color")
    act(state, e, f"accept_share:{d}")  # seen by the other room only
    act(state, d, f"vote_usurp:{d}")  # one vote of four: seen by the other room only
    assert state.known[d] and state.votes
    (sample,) = samples(state, a, 1)
    assert [r.action_id for r in sample.log] == [
        f"whisper:{b}", HIDDEN_ACTION, f"offer_share:{a}:card", f"nominate_leader:{e}", *[HIDDEN_ACTION] * 3]
    assert [r.seat for r in sample.log] == [r.seat for r in state.log]
    assert [e["k"] for e in sample.events] == ["whisper", "hidden", "offer", "nominate", "hidden", "hidden", "hidden"]
    assert all(e["see"] == [] for e in sample.events if e["k"] == "hidden")
    assert sample.offers == [[c, a, "card"]]  # only the offers the seat made or was made
    assert sample.known[d] == sample.known[e] == {} and sample.votes == {}  # unseen: taken to have changed nothing
    sample.cursor = sample.order.index(c)
    assert f"accept_share:{b}" not in [x.id for x in sample.legal_actions(c)]


def test_the_other_rooms_pending_hostage_choice_is_drawn_anew():
    state = play_random(new_state(12, 5, {"parley_messages": 1}), random.Random(5), until=lambda s: s.phase == "parley")
    for room in (0, 1):
        seat = next(s for s in state.members(room) if s != state.leaders[room])
        other = 1 - room
        choices = set()
        for sample in samples(state, seat, 40):
            assert sample.chosen[room] == state.chosen[room]
            chosen = sample.chosen[other]
            assert len(chosen) == state.hostage_count() and state.leaders[other] not in chosen
            assert set(chosen) <= set(state.members(other))
            event = [e for e in sample.events if e["k"] == "hostages"][-2 + other]
            assert event["seats"] == chosen
            choices.add(tuple(chosen))
        assert len(choices) > 1


def test_the_gamblers_bet_shows_who_the_gambler_is():
    state = play_random(new_state(7, 11), random.Random(11), until=lambda s: s.phase == "gamble")
    gambler = state.current_seats()[0]
    seat = (gambler + 1) % 7
    assert all(sample.cards[gambler] == GAMBLER for sample in samples(state, seat, 40))
    state.apply_action(gambler, "gamble:red")
    assert all(sample.cards == state.cards for sample in samples(state, seat, 10))  # the end shows every card


def test_gamebench_seats_know_only_their_colour_so_their_own_card_is_dealt_too():
    state = new_state(6, 6, {"gamebench_simplified": True})
    seat = state.cards.index(PRESIDENT)
    own = Counter(sample.cards[seat] for sample in samples(state, seat))
    assert set(own) == {PRESIDENT, BLUE} and 70 < own[PRESIDENT] < 130  # the President is one Blue card in three


def test_a_sample_shares_no_list_or_dict_with_its_state():
    state = play_random(new_state(12, 5), random.Random(5), until=lambda s: s.phase == "parley")
    for seat in range(state.game.num_seats):
        (sample,) = samples(state, seat, 1)
        ours = [getattr(sample, name) for name in sample.PAYLOAD_FIELDS]
        theirs = [getattr(state, name) for name in state.PAYLOAD_FIELDS]
        assert not containers(ours, set()) & containers(theirs, set())
