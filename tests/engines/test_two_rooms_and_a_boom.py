"""Two Rooms and a Boom: the fact sheet's test facts (test_factN_...), the hostage table, leaders, shares and who sees
what, the GameBench variant, and seeded random playouts with invariants at 6, 7 and 10 seats."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.two_rooms_and_a_boom import TwoRoomsGame
from gameplay.engines.two_rooms_and_a_boom.cards import BLUE, BOMBER, GAMBLER, PRESIDENT, RED, team_of
from gameplay.engines.two_rooms_and_a_boom.text import card_fact, colour_fact

from .conformance import check_playouts
from .two_rooms_support import new_state, play_random


def act(state, seat, action_id, text=None):
    """Let ``seat`` take its next talk action now (tests jump the rotating order to it)."""
    state.cursor = state.order.index(seat)
    state.apply_action(seat, action_id, text)


def ids(state, seat):
    return [a.id for a in state.legal_actions(seat)]


def seen(state, seat):
    return json.dumps(state.observation(seat).to_json(), ensure_ascii=False)


def name(seat):
    return f"Player {seat + 1}"


def finish_talk(state):
    """Every seat still to talk this round says it is done."""
    while state.phase == "talk":
        state.apply_action(state.current_seats()[0], "done")


def arrange(state, together):
    """Re-deal the cards of a finished game so that the President and the Bomber end in the same room or not."""
    a, b = state.members(0), state.members(1)
    others = [c for c in state.cards if c not in (PRESIDENT, BOMBER)]
    cards = {}
    cards[a[0]] = PRESIDENT
    cards[a[1] if together else b[0]] = BOMBER
    rest = [s for s in range(len(state.cards)) if s not in cards]
    for seat, card in zip(rest, others, strict=True):
        cards[seat] = card
    state.cards = [cards[s] for s in range(len(state.cards))]


# --- the fact sheet's test facts -------------------------------------------------------------------------


def test_fact1_seven_seats_deal_president_bomber_two_blue_two_red_and_the_gambler():
    for seed in range(10):
        state = new_state(7, seed)
        assert Counter(state.cards) == {PRESIDENT: 1, BOMBER: 1, BLUE: 2, RED: 2, GAMBLER: 1}
    assert len({tuple(new_state(7, seed).cards) for seed in range(10)}) > 1  # dealt by chance


def test_fact2_eight_seats_make_rooms_of_four_and_four_without_a_gambler():
    for seed in range(10):
        state = new_state(8, seed)
        assert len(state.members(0)) == len(state.members(1)) == 4
        assert GAMBLER not in state.cards
        assert Counter(state.cards) == {PRESIDENT: 1, BOMBER: 1, BLUE: 3, RED: 3}
    assert len({tuple(new_state(8, seed).rooms) for seed in range(10)}) > 1  # rooms split by chance


@pytest.mark.parametrize("seats,counts", [(6, (1, 1, 1)), (10, (1, 1, 1)), (11, (2, 1, 1)), (21, (2, 1, 1)),
                                          (22, (3, 2, 1)), (30, (3, 2, 1))])
def test_fact3_hostages_per_room_in_each_round(seats, counts):
    state = new_state(seats, 4)
    assert state.game.hostages == counts
    for round_number, count in enumerate(counts, start=1):
        finish_talk(state)
        assert state.round == round_number and state.phase == "hostages"
        for _ in (0, 1):
            leader = state.current_seats()[0]
            choices = ids(state, leader)
            assert choices and all(len(c.split(":")[1].split(",")) == count for c in choices)
            state.apply_action(leader, choices[-1])
        while state.phase == "parley":
            state.apply_action(state.current_seats()[0], "parley_pass")
        moved = state.events[-1]
        assert moved["k"] == "exchange" and [len(m) for m in moved["moves"]] == [count, count]


def test_fact4_hostages_with_the_leader_or_the_wrong_count_are_illegal():
    state = new_state(11, 2)
    finish_talk(state)
    leader = state.current_seats()[0]
    others = [s for s in state.members(state.rooms[leader]) if s != leader]
    legal = ids(state, leader)
    assert all(str(leader) not in c.split(":")[1].split(",") for c in legal)
    for bad in (f"hostages:{min(leader, others[0])},{max(leader, others[0])}",  # the Leader included
                f"hostages:{others[0]}",  # 1 instead of 2 in round 1 with 11 seats
                f"hostages:{others[0]},{others[1]},{others[2]}"):
        with pytest.raises(IllegalActionError):
            state.apply_action(leader, bad)
    state.apply_action(leader, f"hostages:{others[0]},{others[1]}")
    assert state.chosen[state.rooms[leader]] == [others[0], others[1]]


def test_fact5_after_each_exchange_the_rooms_keep_their_sizes():
    for seats in (6, 7, 11, 22):
        state = new_state(seats, seats)
        sizes = (len(state.members(0)), len(state.members(1)))
        rng = random.Random(seats)
        for round_number in (1, 2, 3):
            play_random(state, rng, until=lambda s, r=round_number: s.round > r or s.phase in ("gamble", "over"))
            assert (len(state.members(0)), len(state.members(1))) == sizes
            assert all(state.rooms[state.leaders[room]] == room for room in (0, 1))


def test_fact6_president_and_bomber_together_at_the_end_give_red_the_win():
    state = play_random(new_state(8, 3), random.Random(3))
    arrange(state, together=True)
    reds = [s for s, c in enumerate(state.cards) if team_of(c) == RED]
    assert state.scores() == [0.25 if s in reds else 0.0 for s in range(8)]
    assert all(state.measures(s)["team_won"] == (s in reds) for s in range(8))
    assert state.result_text().startswith("Red wins")
    arrange(state, together=False)
    assert state.scores() == [0.0 if s in reds else 0.25 for s in range(8)]
    assert state.result_text().startswith("Blue wins")


def test_fact7_a_card_share_shows_the_whole_card_to_the_partner_only():
    state = new_state(6, 1)
    a, b, c = state.members(0)
    act(state, a, f"offer_share:{b}:card")
    assert f"accept_share:{a}" in ids_for(state, b)
    labels = state.action_labels(b, f"accept_share:{a}")
    act(state, b, f"accept_share:{a}")
    fact_a, fact_b = card_fact(a, state.cards[a], name), card_fact(b, state.cards[b], name)
    assert fact_a in state.observation(b).text and fact_b in state.observation(a).text
    assert fact_a in labels.by_seat[b] and fact_b in labels.by_seat[a]
    third = state.observation(c).text
    assert f"{name(a)} and {name(b)} privately showed each other their cards." in third
    for viewer in [c, *state.members(1), None]:
        text = seen(state, viewer)
        assert fact_a not in text and fact_b not in text
        assert fact_a not in state.observation(viewer).text
    assert all(fact_a not in labels.by_seat[v] for v in range(6) if v not in (a, b))
    assert fact_a not in labels.public and fact_a in state.secrets()[b]


def ids_for(state, seat):
    state.cursor = state.order.index(seat)
    return ids(state, seat)


def test_fact8_a_seat_never_sees_the_other_rooms_talk_but_leaders_see_the_parley():
    state = new_state(6, 5)
    a, b = state.members(0), state.members(1)
    labels = state.action_labels(a[0], "say", "the secret plan is tulips")
    act(state, a[0], "say", "the secret plan is tulips")
    act(state, b[0], f"whisper:{b[1]}", "meet me by the window")
    for seat in a:
        assert "tulips" in state.observation(seat).text and "window" not in seen(state, seat)
    assert "window" in state.observation(b[1]).text and "window" not in seen(state, b[2])
    for seat in [*b, None]:
        assert "tulips" not in seen(state, seat)
        assert "tulips" not in labels.for_viewer(seat)
    finish_talk(state)
    for _ in (0, 1):
        leader = state.current_seats()[0]
        state.apply_action(leader, ids(state, leader)[0])
    first = state.current_seats()[0]
    state.apply_action(first, "parley_say", "send me your quietest one")
    leaders = set(state.leaders)
    for seat in range(6):
        assert ("quietest" in seen(state, seat)) == (seat in leaders)
    assert "quietest" not in seen(state, None)


def test_fact9_a_gambler_who_names_the_winning_team_wins_whichever_team_won():
    for together, winner in ((True, "red"), (False, "blue")):
        state = play_random(new_state(7, 11), random.Random(11), until=lambda s: s.phase == "gamble")
        arrange(state, together)
        gambler = state.cards.index(GAMBLER)
        assert state.current_seats() == [gambler] and ids(state, gambler) == ["gamble:red", "gamble:blue"]
        state.apply_action(gambler, f"gamble:{winner}")
        scores = state.scores()
        assert scores[gambler] == max(scores) > 0 and state.measures(gambler)["team_won"] is True
        team = [s for s, c in enumerate(state.cards) if team_of(c) == winner]
        assert all(scores[s] == scores[gambler] for s in team) and abs(sum(scores) - 1) < 1e-9
    wrong = play_random(new_state(7, 11), random.Random(11), until=lambda s: s.phase == "gamble")
    arrange(wrong, together=True)
    wrong.apply_action(wrong.cards.index(GAMBLER), "gamble:blue")
    assert wrong.scores()[wrong.cards.index(GAMBLER)] == 0.0


# --- why the game ended (State.end_reason) ---------------------------------------------------------------------


def test_end_reason_where_the_president_and_the_bomber_are_after_the_last_exchange():
    state = play_random(new_state(8, 3), random.Random(3))
    a, b = state.members(0), state.members(1)
    arrange(state, together=True)
    assert state.end_reason() == (f"After the last hostage exchange the Bomber ({name(a[1])}) is in Room A with the "
                                  f"President ({name(a[0])}).")
    arrange(state, together=False)
    assert state.end_reason() == (f"After the last hostage exchange the President ({name(a[0])}) is in Room A, away "
                                  f"from the Bomber ({name(b[0])}).")
    assert state.clone().end_reason() == state.end_reason()


def test_end_reason_adds_the_gamblers_bet():
    for bet, verdict in (("red", "right"), ("blue", "wrong")):
        state = play_random(new_state(7, 11), random.Random(11), until=lambda s: s.phase == "gamble")
        arrange(state, together=True)
        assert state.end_reason() is None
        a = state.members(0)
        gambler = state.cards.index(GAMBLER)
        state.apply_action(gambler, f"gamble:{bet}")
        assert state.end_reason() == (f"After the last hostage exchange the Bomber ({name(a[1])}) is in Room A with "
                                      f"the President ({name(a[0])}). The Gambler ({name(gambler)}) bet on "
                                      f"{bet.title()} and was {verdict}.")


# --- leaders ------------------------------------------------------------------------------------------------


def test_the_first_nomination_appoints_the_leader_and_nobody_nominates_themself():
    state = new_state(6, 2)
    a = state.members(0)
    legal = ids_for(state, a[0])
    assert f"nominate_leader:{a[0]}" not in legal and f"nominate_leader:{a[1]}" in legal
    with pytest.raises(IllegalActionError):
        state.apply_action(a[0], f"nominate_leader:{a[0]}")
    act(state, a[0], f"nominate_leader:{a[1]}")
    assert state.leaders[0] == a[1] and state.leaders[1] is None
    assert not [i for i in ids_for(state, a[2]) if i.startswith("nominate_leader")]
    assert f"{name(a[0])} appointed {name(a[1])} Leader of Room A." in seen(state, state.members(1)[0])  # public


def test_a_strict_majority_of_usurp_votes_replaces_the_leader():
    state = new_state(10, 2)
    room = state.members(0)  # five seats
    act(state, room[0], f"nominate_leader:{room[1]}")
    act(state, room[2], f"vote_usurp:{room[3]}")
    act(state, room[3], f"vote_usurp:{room[3]}")
    assert state.leaders[0] == room[1]  # 2 of 5 is no majority
    act(state, room[4], f"vote_usurp:{room[3]}")
    assert state.leaders[0] == room[3] and state.votes == {}
    assert state.led[room[3]] and state.led[room[1]]


def test_an_abdicated_leader_cannot_lead_again_that_round():
    state = new_state(6, 2)
    a = state.members(0)
    act(state, a[0], f"nominate_leader:{a[1]}")
    act(state, a[1], f"abdicate:{a[2]}")
    assert state.leaders[0] == a[2]
    assert f"vote_usurp:{a[1]}" not in ids_for(state, a[0])


def test_a_room_without_a_leader_gets_one_at_random_when_talking_ends():
    state = new_state(6, 9)
    finish_talk(state)
    assert all(state.leaders[r] in state.members(r) for r in (0, 1))
    assert [e["k"] for e in state.events[-2:]] == ["auto_leader", "auto_leader"]
    assert state.current_seats() == [state.leaders[0]]


# --- talk, budgets and validation -----------------------------------------------------------------------------


def test_budgets_are_three_two_one_and_every_talk_action_spends_one():
    state = new_state(6, 0)
    assert state.budgets == [3] * 6
    seat = state.current_seats()[0]
    state.apply_action(seat, "say", "  hello   there ")
    assert state.budgets[seat] == 2 and state.events[-1]["text"] == "hello there"
    assert state.current_seats() != [seat]  # the turn rotates
    finish_talk(state)
    for _ in (0, 1):
        leader = state.current_seats()[0]
        state.apply_action(leader, ids(state, leader)[0])
    while state.phase == "parley":
        state.apply_action(state.current_seats()[0], "parley_pass")
    assert state.round == 2 and state.budgets == [2] * 6
    assert TwoRoomsGame({"talk_budget": 2}, 6).new_initial_state(0).budgets == [6] * 6


def test_illegal_talk_is_refused_with_the_state_unchanged():
    state = new_state(6, 3)
    a, b = state.members(0), state.members(1)
    state.cursor = state.order.index(a[0])
    before = json.dumps(state.to_json(), sort_keys=True)
    for action_id, text in ((f"whisper:{b[0]}", "hi"), (f"offer_share:{b[0]}:card", None), ("say", "   "),
                            (f"accept_share:{a[1]}", None), ("hostages:1", None), ("gamble:red", None),
                            ("say", "x" * 301)):
        with pytest.raises(IllegalActionError):
            state.apply_action(a[0], action_id, text)
    with pytest.raises(IllegalActionError):
        state.apply_action(a[1], "done")  # not its turn
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_a_colour_share_shows_only_the_colour_and_a_public_reveal_only_the_room():
    state = new_state(6, 7)
    a, b, c = state.members(0)
    act(state, a, f"offer_share:{b}:color")
    act(state, b, f"accept_share:{a}")
    colour, card = colour_fact(a, state.cards[a], name), card_fact(a, state.cards[a], name)
    assert colour in state.observation(b).text and card not in seen(state, b)
    assert colour not in seen(state, c)
    act(state, c, "reveal_public")
    fact_c = card_fact(c, state.cards[c], name)
    assert fact_c in state.observation(a).text and fact_c in state.observation(b).text
    assert all(fact_c not in seen(state, v) for v in [*state.members(1), None])
    assert "reveal_public" not in ids_for(state, c)  # everybody here has seen it


def test_secrets_are_each_seats_own_card_lines_and_nothing_at_the_end():
    state = new_state(6, 1)
    secrets = state.secrets()
    for seat in range(6):
        own = state.observation(seat).text
        assert all(value in own for value in secrets[seat])
        assert all(value not in seen(state, other) for value in secrets[seat][1:] for other in range(6)
                   if other != seat)
    play_random(state, random.Random(1))
    assert state.secrets() == {}
    assert "All cards:" in state.observation(None).text


# --- the GameBench variant ---------------------------------------------------------------------------------------


def test_gamebench_variant_fixed_leaders_colour_only_no_sharing_and_one_hostage():
    with pytest.raises(InvalidOptionsError):
        TwoRoomsGame({"gamebench_simplified": True}, 8)
    state = new_state(6, 4, {"gamebench_simplified": True})
    leaders = list(state.leaders)
    assert all(state.leaders[r] in state.members(r) for r in (0, 1))
    for seat in range(6):
        text = state.observation(seat).text
        assert "President" not in text and "Bomber" not in text
        assert text.count(" is on the ") == 1  # only its own colour
        assert colour_fact(seat, state.cards[seat], name) in text
    seat = state.current_seats()[0]
    assert all(i == "done" for i in ids(state, seat))
    play_random(state, random.Random(4), until=lambda s: s.phase == "hostages")
    assert all(len(i.split(",")) == 1 for i in ids(state, state.current_seats()[0]))
    play_random(state, random.Random(4))
    assert state.leaders == leaders and not any(e["k"] == "parley" for e in state.events)


# --- random playouts ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats,playouts", [(6, 25), (7, 12), (10, 6)])
def test_random_playouts_conform_with_invariants(seats, playouts):
    finals = check_playouts(lambda: TwoRoomsGame({}, seats), n_playouts=playouts, base_seed=300 + seats)
    for state in finals:
        sizes = Counter(state.rooms)
        assert sorted(sizes.values()) == [seats // 2, seats - seats // 2]
        assert len(state.log) <= state.game.max_actions()
        for event in state.events:
            if event["k"] == "hostages":
                assert event["s"] not in event["seats"]
        moves = sum(len(m) for e in state.events if e["k"] == "exchange" for m in e["moves"])
        assert moves == 2 * sum(state.game.hostages) == sum(state.sent)
        winners = state.winning_seats()
        assert all(state.scores()[s] == pytest.approx(1 / len(winners)) for s in winners)
        assert all(state.measures(s)["team_won"] == (s in winners) for s in range(seats))
        assert all(state.measures(s)["team"] in (0, 1, 2) for s in range(seats))


def test_the_gamebench_variant_passes_random_playouts():
    check_playouts(lambda: TwoRoomsGame({"gamebench_simplified": True}, 6), n_playouts=10, base_seed=50)
