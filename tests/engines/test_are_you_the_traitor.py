"""Are You the Traitor?: the fact sheet's test facts (test_factN_...), the Key hand-off and the talk cap, the Magic
Ring, ties, the GameBench options, text validation, and seeded random playouts with invariants at 4, 7 and 10
seats (treasure conserved, scores valid, no leaks, JSON round trip, replay)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.are_you_the_traitor import TraitorGame
from gameplay.engines.are_you_the_traitor.deck import RING, card_words, characters_for, points, treasure_deck

from .conformance import check_observation_leaks, check_playouts

G, E = "good", "evil"
# 5 seats: Player 1 Traitor, Player 2 Evil Wizard, Player 3 Good Wizard, Player 4 Keyholder, Player 5 Guard.
FIVE = (["traitor", "wizard", "wizard", "keyholder", "guard"], [None, E, G, None, None])


def state_with(characters, alignments, options=None, seed=0, actor=0):
    """A fresh state whose round-one deal is replaced, with ``actor`` first to talk."""
    state = TraitorGame(options or {}, len(characters)).new_initial_state(seed)
    state.characters, state.alignments = list(characters), list(alignments)
    state.start, state.turn = actor, 0
    return state


def ids(state, seat):
    return [a.id for a in state.legal_actions(seat)]


def finish_ring_step(state):
    while state.phase == "ring":
        state.apply_action(state.current_seats()[0], "keep_ring")


def views(state):
    return {seat: json.dumps(state.observation(seat).to_json()) for seat in [*range(state.game.num_seats), None]}


# --- the fact sheet's test facts --------------------------------------------------------------------------------


def test_fact1_five_seats_deal_two_wizards_keyholder_guard_traitor_and_both_alignments():
    for seed in range(10):
        state = TraitorGame({}, 5).new_initial_state(seed)
        assert sorted(state.characters) == ["guard", "keyholder", "traitor", "wizard", "wizard"]
        assert sorted(a for a in state.alignments if a) == [E, G]
        assert all((a is not None) == (c == "wizard") for c, a in zip(state.characters, state.alignments, strict=True))
        assert state.set_aside == []


def test_fact2_four_seats_have_one_wizard_whose_alignment_only_it_knows():
    seen = set()
    for seed in range(12):
        state = TraitorGame({}, 4).new_initial_state(seed)
        assert sorted(state.characters) == ["guard", "keyholder", "traitor", "wizard"]
        wizard = state.characters.index("wizard")
        alignment = state.alignments[wizard]
        seen.add(alignment)
        assert state.set_aside == [E if alignment == G else G]  # the other card stays unseen
        word = "Good" if alignment == G else "Evil"
        sentence = f"your secret alignment is {word}"
        dumps = views(state)
        assert sentence in dumps[wizard]
        assert all(sentence not in dumps[s] for s in dumps if s != wizard)
        assert all("alignment is" not in dumps[s] for s in dumps if s != wizard)
    assert seen == {G, E}


@pytest.mark.parametrize("seats", [6, 7, 8, 9, 10])
def test_fact3_from_six_seats_guards_and_traitors_see_the_keyholder_wizards_do_not(seats):
    state = TraitorGame({}, seats).new_initial_state(seats)
    keyholder = state.keyholder()
    fact = f"Player {keyholder + 1} is the Keyholder"
    for seat, character in enumerate(state.characters):
        text = state.observation(seat).text
        if character in ("guard", "traitor", "keyholder"):
            assert fact in text
        else:
            assert fact not in text and "Keyholder" not in text.split("What you know this round:")[1].split("\n")[0]
    assert fact not in state.observation(None).text
    small = TraitorGame({}, 5).new_initial_state(1)
    fact = f"Player {small.keyholder() + 1} is the Keyholder"
    assert [s for s in range(5) if fact in small.observation(s).text] == [small.keyholder()]


def test_fact4_eight_seat_traitors_know_each_other_seven_seat_traitor_has_no_partner():
    state = TraitorGame({}, 8).new_initial_state(4)
    traitors = [s for s, c in enumerate(state.characters) if c == "traitor"]
    assert len(traitors) == 2
    for seat in traitors:
        other = traitors[1] if seat == traitors[0] else traitors[0]
        assert f"Player {other + 1} is a Traitor" in state.observation(seat).text
    for seat in range(8):
        if seat not in traitors:
            assert all(f"Player {t + 1} is a Traitor" not in state.observation(seat).text for t in traitors)
    seven = TraitorGame({}, 7).new_initial_state(4)
    assert seven.characters.count("traitor") == 1
    for seat in range(7):
        assert seven.observation(seat).text.count(" is a Traitor") == (1 if seven.characters[seat] == "traitor" else 0)


def test_fact5_stop_is_never_a_traitors_action():
    state = state_with(*FIVE, actor=0)
    assert ids(state, 0) == ["pass"] and [t.id for t in state.text_actions(0)] == ["say"]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "stop:3")
    for seed in range(20):  # whatever the deal and whoever talks first
        random_state = TraitorGame({}, 8).new_initial_state(seed)
        for _ in range(8):
            seat = random_state.current_seats()[0]
            if random_state.characters[seat] == "traitor":
                assert not [a for a in ids(random_state, seat) if a.startswith("stop")]
            random_state.apply_action(seat, "pass")


def test_fact6_guard_catching_a_traitor_gives_each_good_player_exactly_one_card():
    state = state_with(*FIVE, actor=4)
    state.apply_action(4, "stop:0")
    assert state.last["team"] == G
    assert [len(h) for h in state.hands] == [0, 0, 1, 1, 1]
    assert state.rounds_won == [0, 0, 1, 1, 1]


def test_fact7_evil_wizard_stopping_a_guard_makes_good_win():
    state = state_with(*FIVE, actor=1)
    state.apply_action(1, "stop:4")
    assert state.last["team"] == G and [len(h) for h in state.hands] == [0, 0, 1, 1, 1]
    grab = state_with(*FIVE, actor=1)
    grab.apply_action(1, "stop:3")
    assert grab.last["team"] == E and [len(h) for h in grab.hands] == [1, 1, 0, 0, 0]


def test_fact8_keyholder_handing_the_key_to_the_evil_wizard_makes_evil_win():
    state = state_with(*FIVE, actor=3)
    labels = state.action_labels(3, "stop:1")
    state.apply_action(3, "stop:1")
    assert state.last["team"] == E and [len(h) for h in state.hands] == [1, 1, 0, 0, 0]
    assert labels.by_seat[3] == "You hand the Key to Player 2." and labels.public == "Player 4 calls Stop on Player 2."
    good = state_with(*FIVE, actor=3)
    good.apply_action(3, "stop:2")
    assert good.last["team"] == G


def test_fact9_the_first_stop_ends_the_round_and_the_rest_of_the_tick_is_dropped():
    state = state_with(*FIVE, actor=0)
    state.apply_action(0, "say", "I am a Guard, honestly.")
    state.apply_action(1, "pass")
    state.apply_action(2, "stop:0")  # Good Wizard catches the Traitor mid-tick
    assert state.phase == "ring" and state.ring_order == [2, 3, 4, 0, 1]  # the Ring step counts from the caller
    assert state.current_seats() == [2, 3, 4, 0, 1]  # ... and asks everyone at once
    with pytest.raises(IllegalActionError):
        state.apply_action(3, "pass")  # Player 4's talk turn of that tick never comes
    finish_ring_step(state)
    assert state.round_no == 2 and state.tick == 1 and state.talk == []
    assert state.current_seats() == [1]  # the next round's talk starts one seat further on
    assert "Round 1: Player 3 called Stop on Player 1. Good won the round." in state.observation(None).text


def test_fact10_treasure_values_are_absent_from_every_other_seats_view():
    for seed in range(6):
        rng = random.Random(seed)
        state = TraitorGame({}, 6).new_initial_state(seed)
        while not state.is_terminal():
            dumps = views(state)
            for seat, hand in enumerate(state.hands):
                if not hand:
                    continue
                sentence = state.hand_sentence(seat)
                assert sentence in dumps[seat]
                for other, dump in dumps.items():
                    if other is None or other != seat and state.hand_sentence(other) != sentence:
                        assert sentence not in dump
                for other in range(state.game.num_seats):  # each seat's data lists its own cards and points only
                    data = state.observation(other).data
                    assert data["treasure"] == [card_words(c) for c in state.hands[other]]
                    assert data["points"] == points(state.hands[other])
                assert "treasure" not in state.observation(None).data and "points" not in state.observation(None).data
            check_observation_leaks(state)
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(ids(state, seat)))


def test_fact11_no_end_while_every_total_is_at_most_nine():
    state = state_with(*FIVE, actor=4)
    state.hands = [["crown_jewels", "platinum_pyramid"], [], ["crown_jewels", "platinum_pyramid"], [], []]
    state.deck = [c for c in state.deck if c not in ("gilded_statue", "crown_jewels")] + ["gilded_statue"] * 3
    state.apply_action(4, "stop:0")  # Good wins: Players 3, 4, 5 each draw a Gilded Statue (0 points)
    finish_ring_step(state)
    assert max(state.totals()) == 9 and not state.is_terminal() and state.round_no == 2
    state.characters, state.alignments = list(FIVE[0]), list(FIVE[1])
    state.deck.append("chest_of_copper")  # the next card drawn (by the caller's side, starting with Player 3)
    seat = state.current_seats()[0]
    while state.characters[seat] != "guard":
        state.apply_action(seat, "pass")
        seat = state.current_seats()[0]
    state.apply_action(seat, "stop:0")
    finish_ring_step(state)
    assert state.is_terminal() and state.totals()[2] >= 10 and state.ending == "target"
    assert state.scores()[2] == 1.0


# --- calling Stop, the Key and the talk cap ---------------------------------------------------------------


def test_the_keyholder_hands_the_key_only_to_a_wizard():
    state = state_with(*FIVE, actor=3)
    assert ids(state, 3) == ["pass", "stop:1", "stop:2"]
    for bad in ("stop:0", "stop:4", "stop:3"):
        with pytest.raises(IllegalActionError):
            state.apply_action(3, bad)
    guard = state_with(*FIVE, actor=4)
    assert ids(guard, 4) == ["pass", "stop:0", "stop:1", "stop:2", "stop:3"]  # anyone but itself


def test_the_tick_cap_forces_the_keyholder_to_hand_over_the_key():
    state = state_with(*FIVE, options={"ticks_before_handoff": 2}, actor=0)
    for _ in range(2 * 5):
        state.apply_action(state.current_seats()[0], "pass")
    assert state.phase == "handoff" and state.current_seats() == [3]
    assert ids(state, 3) == ["stop:1", "stop:2"] and state.text_actions(3) == []
    with pytest.raises(IllegalActionError):
        state.apply_action(3, "pass")
    assert "the Keyholder must now hand the Key to a Wizard" in state.observation(0).text
    state.apply_action(3, "stop:2")
    assert state.last["team"] == G
    at_once = state_with(*FIVE, options={"ticks_before_handoff": 0})
    assert at_once.phase == "handoff" and at_once.current_seats() == [3]
    assert TraitorGame({"ticks_before_handoff": 2, "max_rounds": 3}, 5).max_actions() == 3 * (10 + 1 + 5) + 1


def test_say_is_validated_and_public():
    state = state_with(*FIVE, actor=0)
    for bad in ("", "   ", "bell\x07", "x" * 201):
        with pytest.raises(IllegalActionError):
            state.apply_action(0, "say", bad)
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "say")  # no text at all
    labels = state.action_labels(0, "say", "Player 4   looks\nshifty")
    state.apply_action(0, "say", "Player 4   looks\nshifty")
    assert state.talk[-1] == {"k": "say", "s": 0, "t": "Player 4 looks shifty"}
    assert labels.public == "Player 1 says: Player 4 looks shifty" and labels.by_seat[0].startswith("You say")
    assert "Player 1: \u201cPlayer 4 looks shifty\u201d" in state.observation(3).text


def test_the_starting_seat_rotates_every_round():
    state = TraitorGame({}, 6).new_initial_state(2)
    firsts = []
    while len(firsts) < 4:
        firsts.append(state.current_seats()[0])
        round_no = state.round_no
        while state.round_no == round_no:
            seat = state.current_seats()[0]
            legal = ids(state, seat)
            stops = [a for a in legal if a.startswith("stop")]
            state.apply_action(seat, stops[0] if stops else legal[-1])
    assert firsts == [0, 1, 2, 3]


# --- treasure and the Magic Ring ----------------------------------------------------------------------------


def test_ring_steal_takes_a_random_card_and_discards_the_ring():
    state = state_with(*FIVE, actor=4)
    state.hands = [[RING], ["bag_of_gold"], [], [], []]
    state.apply_action(4, "stop:0")  # Good wins; Player 5 (the winning caller) is protected
    order = state.ring_order
    assert order == [4, 0, 1, 2, 3]
    state.apply_action(4, "keep_ring")
    legal = ids(state, 0)
    assert "ring:4" not in legal and "ring:1" in legal and "ring:2" in legal and legal[-1] == "keep_ring"
    assert "ring:0" not in legal
    labels = state.action_labels(0, "ring:1")
    assert labels.by_seat[1] == "Player 1 uses a Magic Ring on you." and labels.public.startswith("Player 1 uses")
    state.apply_action(0, "ring:1")
    assert state.hands[0] == ["bag_of_gold"] and state.hands[1] == [] and state.discard == [RING]
    sentence = "Player 1 took Bag of Gold (3) from Player 2 with a Magic Ring"
    assert sentence in state.observation(0).text and sentence in state.observation(1).text
    assert sentence not in state.observation(2).text and sentence not in state.observation(None).text
    assert "Player 1 used a Magic Ring on Player 2 and took a card at random." in state.observation(2).text
    assert ids(state, 1) == ["keep_ring"]  # no ring: just go on
    check_observation_leaks(state)


def test_every_seat_is_asked_at_once_so_being_asked_does_not_reveal_ring_holders():
    state = state_with(*FIVE, actor=4)
    state.hands = [["bag_of_gold"], [], [], [], []]
    state.apply_action(4, "stop:0")
    assert state.current_seats() == [4, 0, 1, 2, 3]
    for seat in (2, 0, 4, 3, 1):  # any order: nobody waits for anybody
        labels = state.action_labels(seat, "keep_ring")
        assert labels.public == f"Player {seat + 1} does not use a Magic Ring."
        state.apply_action(seat, "keep_ring")
        assert state.phase != "ring" or seat not in state.current_seats()
    assert state.phase == "talk" and state.round_no == 2
    nobody = state_with(*FIVE, actor=0)
    nobody.deck = []  # nothing to draw and nothing held: no Ring step at all
    nobody.apply_action(0, "pass")
    nobody.apply_action(1, "stop:3")
    assert nobody.phase == "talk" and nobody.round_no == 2


def test_the_ring_step_ends_by_itself_for_whoever_does_not_act():
    """Issue 39: a player holding no Magic Ring has nothing to decide there, so the step must not wait for a click.
    Every seat of the step has the same clock (``ring_seconds``) whether it holds a ring or not, and running out of
    time keeps a ring or goes on; talk and the Key hand-off wait for their player as before."""
    state = state_with(*FIVE, actor=4)
    assert TraitorGame.spec.turn_timer
    assert [state.time_limit(s) for s in range(5)] == [0] * 5  # talk is not timed
    state.hands = [[RING], ["bag_of_gold"], [], [], []]
    state.apply_action(4, "stop:0")
    holder, others = 0, (4, 1, 2, 3)
    assert [state.time_limit(s) for s in range(5)] == [10] * 5
    assert {state.timeout_action(s) for s in range(5)} == {("keep_ring", None)}
    state.apply_action(holder, "ring:1")  # the holder acts; the step still has the others, who never must
    assert state.time_limit(holder) == 0 and state.timeout_action(holder) is None
    for seat in others:
        action_id, text = state.timeout_action(seat)
        state.apply_action(seat, action_id, text)
    assert state.phase == "talk" and state.round_no == 2 and state.hands[0] == ["bag_of_gold"]
    untimed = state_with(*FIVE, options={"ring_seconds": 0}, actor=4)
    untimed.apply_action(4, "stop:0")
    assert untimed.phase == "ring" and untimed.time_limit(0) == 0 and untimed.timeout_action(0) is None


def test_a_state_stored_while_the_ring_step_went_one_seat_at_a_time_loads():
    state = state_with(*FIVE, actor=4)
    state.apply_action(4, "stop:0")
    state.apply_action(4, "keep_ring")
    data = state.to_json()
    payload = data["payload"]
    assert payload.pop("ring_done") == [4]
    payload["ring_pos"] = 1  # the old field: how many seats of ring_order had acted
    loaded = TraitorGame({}, 5).state_from_json(data)
    assert loaded.current_seats() == [0, 1, 2, 3]


def test_an_empty_deck_reshuffles_the_discards_or_draws_nothing():
    state = state_with(*FIVE, actor=4)
    state.deck, state.discard = [], [RING, RING]
    state.apply_action(4, "stop:0")
    assert sorted(len(h) for h in state.hands) == [0, 0, 0, 1, 1] and state.deck == [] and state.discard == []
    assert [seat for seat, card in state.last["draws"] if card is None] == [3]  # Player 4 drew last, nothing left
    assert "Player 4 could not draw" in state.observation(None).text


# --- the end ------------------------------------------------------------------------------------------------


def test_equal_highest_totals_share_the_win():
    state2 = state_with(*FIVE, options={"max_rounds": 1}, actor=4)
    state2.hands = [["crown_jewels"], ["crown_jewels"], [], [], []]
    state2.deck += ["gilded_statue"] * 3
    state2.apply_action(4, "stop:0")
    finish_ring_step(state2)
    assert state2.is_terminal() and state2.ending == "max_rounds"
    assert state2.scores() == [0.5, 0.5, 0.0, 0.0, 0.0]
    assert state2.measures(0)["won"] is True and state2.measures(2)["won"] is False
    assert state2.result_text().startswith("Final points: Player 1 5, Player 2 5")


def test_max_rounds_ends_the_game_and_the_leader_wins():
    state = state_with(*FIVE, options={"max_rounds": 1}, actor=4)
    state.deck.append("chest_of_copper")
    state.deck.append("bag_of_gold")
    state.deck.append("silver_goblet")
    state.apply_action(4, "stop:0")
    finish_ring_step(state)
    # Cards are drawn from the caller on round the table: Player 5, then Player 3, then Player 4.
    assert state.is_terminal() and state.totals() == [0, 0, 3, 1, 2]
    assert state.scores() == [0, 0, 1, 0, 0]
    assert state.measures(2) == {"points": 3, "rounds_won": 1, "won": True}
    assert "Player 4 drew Chest of Copper (1)." in state.observation(None).text  # the end reveals everything
    assert state.secrets() == {s: [] for s in range(5)}


# --- GameBench options --------------------------------------------------------------------------------------


def test_gamebench_fixed_roles_keep_the_five_seat_table_every_round():
    game = TraitorGame({"gamebench_fixed_roles": True}, 5)
    state = game.new_initial_state(9)
    for _ in range(3):
        assert (state.characters, state.alignments) == FIVE
        seat = state.current_seats()[0]
        legal = ids(state, seat)
        state.apply_action(seat, legal[-1] if len(legal) > 1 else "pass")
        finish_ring_step(state)
    assert "You are a Traitor" in state.observation(0).text
    four = TraitorGame({"gamebench_fixed_roles": True}, 4).new_initial_state(3)
    first = (list(four.characters), list(four.alignments))
    four.apply_action(four.current_seats()[0], "pass")
    while four.round_no == 1:
        seat = four.current_seats()[0]
        four.apply_action(seat, ids(four, seat)[-1])
    assert (four.characters, four.alignments) == first
    assert TraitorGame({"gamebench_fixed_roles": True, "gamebench_team_win": True}, 5).teams() == [1, 1, 0, 0, 0]
    assert TraitorGame({"gamebench_team_win": True}, 5).teams() == [0, 1, 2, 3, 4]  # teams change every round


def test_gamebench_team_win_gives_the_leaders_team_the_game():
    state = state_with(*FIVE, options={"gamebench_team_win": True}, actor=4)
    state.hands = [[], [], ["crown_jewels", "crown_jewels"], [], []]
    state.deck.append("gilded_statue")
    state.deck.append("gilded_statue")
    state.deck.append("gilded_statue")
    state.apply_action(4, "stop:0")  # Good wins; Player 3 reaches 10 with a Gilded Statue
    finish_ring_step(state)
    assert state.is_terminal()
    assert state.scores() == pytest.approx([0, 0, 1 / 3, 1 / 3, 1 / 3])


def test_options_are_validated():
    for bad in ({"target_points": 0}, {"max_rounds": 0}, {"ticks_before_handoff": -1}, {"nope": 1}):
        with pytest.raises(InvalidOptionsError):
            TraitorGame(bad, 5)
    with pytest.raises(InvalidOptionsError):
        TraitorGame({}, 3)
    with pytest.raises(InvalidOptionsError):
        TraitorGame({}, 11)


# --- random play with invariants ----------------------------------------------------------------------------


def _conserved(state):
    cards = Counter(state.deck) + Counter(state.discard)
    for hand in state.hands:
        cards += Counter(hand)
    return cards == Counter(treasure_deck())


@pytest.mark.parametrize("seats", [4, 7, 10])
def test_random_games_conserve_treasure_score_validly_and_replay(seats):
    for seed in range(6):
        options = {"gamebench_fixed_roles": True, "gamebench_team_win": True} if seed % 3 == 2 else {}
        game = TraitorGame(options, seats)
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = ids(state, seat)
            if state.text_actions(seat) and rng.random() < 0.3:
                state.apply_action(seat, "say", rng.choice(["hello", "I trust Player 2", "who has the Key?"]))
            else:
                state.apply_action(seat, rng.choice(legal))
            assert _conserved(state)
            assert sorted(state.characters) == sorted(characters_for(seats))
            assert len(state.log) < game.max_actions()
        assert state.ending in ("target", "max_rounds")
        if state.ending == "target":
            assert max(state.totals()) >= 10
        scores = state.scores()
        assert abs(sum(scores) - 1) < 1e-9 and all(0 <= s <= 1 for s in scores)
        assert game.replay(seed, state.log).to_json() == state.to_json()
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


@pytest.mark.parametrize("seats,options", [
    pytest.param(4, {}, id="4"),
    pytest.param(7, {}, id="7"),
    pytest.param(10, {}, id="10"),
    pytest.param(5, {"gamebench_fixed_roles": True, "gamebench_team_win": True}, id="5-gamebench"),
    pytest.param(8, {"ticks_before_handoff": 0, "target_points": 5}, id="8-no-talk"),
])
def test_conformance_at_more_seats_and_with_variants(seats, options):
    finals = check_playouts(lambda: TraitorGame(options, seats), n_playouts=12, base_seed=300)
    assert all(state.is_terminal() for state in finals)


# --- why the game ended (State.end_reason) and the wording of a draw ------------------------------------------


def _one_good_round(hands, options=None):
    """Player 5 (Guard) catches the Traitor at once: Players 5, 3 and 4 each draw a Gilded Statue (0 points)."""
    state = state_with(*FIVE, options=options, actor=4)
    state.hands = [list(h) for h in hands]
    state.deck += ["gilded_statue"] * 3
    assert state.end_reason() is None
    state.apply_action(4, "stop:0")
    finish_ring_step(state)
    assert state.is_terminal()
    return state


def test_end_reason_the_target_reached():
    state = _one_good_round([[], [], ["crown_jewels", "crown_jewels"], [], []])
    assert state.ending == "target"
    assert state.end_reason() == "Player 3 reached the 10-point target in round 1, with the most points (10)."


def test_end_reason_the_target_reached_by_two_tied_leaders():
    state = _one_good_round([[], [], ["crown_jewels", "crown_jewels"], ["crown_jewels", "crown_jewels"], []])
    assert state.scores() == [0.0, 0.0, 0.5, 0.5, 0.0]
    assert state.end_reason() == ("Player 3 and Player 4 reached the 10-point target in round 1, tied for the most "
                                  "points (10 each).")


def test_end_reason_the_target_with_gamebench_team_win():
    state = _one_good_round([[], [], ["crown_jewels", "crown_jewels"], [], []], {"gamebench_team_win": True})
    assert state.end_reason() == ("Player 3 reached the 10-point target in round 1, with the most points (10). Under "
                                  "GameBench's team result the leader's whole team of the last round (Good) shares "
                                  "the win.")


def test_end_reason_the_round_limit_with_one_leader():
    state = state_with(*FIVE, options={"max_rounds": 1}, actor=4)
    state.deck += ["chest_of_copper", "bag_of_gold", "silver_goblet"]
    state.apply_action(4, "stop:0")
    finish_ring_step(state)
    assert state.ending == "max_rounds" and state.totals() == [0, 0, 3, 1, 2]
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; Player 3 "
                                  "finished with the most points (3).")
    assert state.result_text().endswith(". Winner(s): Player 3.")


def test_end_reason_the_round_limit_with_tied_leaders():
    state = _one_good_round([["crown_jewels"], ["crown_jewels"], [], [], []], {"max_rounds": 1})
    assert state.ending == "max_rounds"
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; Player 1 and "
                                  "Player 2 finished tied for the most points (5 each).")


def test_everyone_on_equal_points_is_a_draw_in_the_engines_words_too():
    state = _one_good_round([[], [], [], [], []], {"max_rounds": 1})
    assert state.scores() == [0.2] * 5
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; everyone "
                                  "finished with 0 points each.")
    assert state.result_text() == ("Final points: Player 1 0, Player 2 0, Player 3 0, Player 4 0, Player 5 0. The "
                                   "game is a draw: every player shares the result.")
    assert "The game is a draw: every player shares the result." in state.observation(0).text
    assert "Winner(s)" not in state.observation(None).text


def test_gamebench_team_win_with_leaders_on_both_teams_is_a_draw():
    state = _one_good_round([["crown_jewels"], [], ["crown_jewels"], [], []],
                            {"max_rounds": 1, "gamebench_team_win": True})
    assert state.scores() == [0.2] * 5
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; Player 1 and "
                                  "Player 3 finished tied for the most points (5 each). The leaders are on both "
                                  "teams, so under GameBench's team result everyone shares the result.")
    assert "The game is a draw" in state.result_text()
    assert state.to_json()["payload"]["end_reason"] == "max_rounds" and state.clone().ending == "max_rounds"
