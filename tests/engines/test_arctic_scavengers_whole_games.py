"""Arctic Scavengers engine over whole games: the spec and the variant options (GameBench rounds and fight sums, the
skirmish tiebreak, a shorter contested pile), properties of seeded random playouts (card conservation, hidden hands,
scores, JSON round trips, replays) and conformance at more seats, and why a game ended. The fact sheet's test facts
and the other rules are tested in test_arctic_scavengers.py."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from gameplay.engines.api import InvalidOptionsError
from gameplay.engines.arctic_scavengers import ArcticGame, ArcticState
from gameplay.engines.arctic_scavengers.cards import CONTESTED_BOX, JUNKYARD_BOX, MERCENARY_BOX, fight_strength, people
from gameplay.engines.registry import GAMES
from tests.engines.arctic_support import keep_hands, new_state, pass_round, to_skirmish_round
from tests.engines.conformance import check_playouts


def total_cards(state: ArcticState) -> Counter:
    count = Counter(state.junkyard) + Counter(state.contested) + Counter(state.removed)
    for key, n in state.supply.items():
        count[key] += n
    for seat in range(state.game.num_seats):
        count.update(state.owned(seat))
    if state.step.get("mode") == "dig":
        count.update(state.step["cards"])
    return count


def box_cards(seats: int) -> Counter:
    count = Counter(MERCENARY_BOX) + Counter(JUNKYARD_BOX) + Counter(CONTESTED_BOX)
    count["refugee"] += 4 * seats  # the other Refugees stay in the box
    return count


# --- options and spec ----------------------------------------------------------------------------------------


def test_registered_with_its_spec():
    assert GAMES["arctic_scavengers"] is ArcticGame
    spec = ArcticGame.spec
    assert (spec.min_seats, spec.max_seats, spec.perfect_information, spec.has_chance) == (2, 5, False, True)
    with pytest.raises(InvalidOptionsError):
        ArcticGame({"contested_count": 0})


def test_gamebench_rounds_option_plays_5_rounds_with_a_skirmish_every_round():
    state = new_state(gamebench_rounds=True)
    assert sorted(state.contested) == sorted(["wolf_pack", "grenade", "sled_team", "field_crew", "tribe_family_5"])
    assert state.skirmish_round()
    pass_round(state)
    assert state.last_skirmish["round"] == 1
    while not state.is_terminal():
        pass_round(state)
    assert state.round == 5 and state.game.total_rounds() == 5


def test_gamebench_fight_sum_option_counts_every_fight_number_without_carriers():
    assert fight_strength(["brawler", "spear", "pickaxe"], carriers_needed=False) == 6  # 4 with one tool a person
    assert fight_strength(["spear", "group_leaders"], carriers_needed=False) == 4  # 0 with nobody to carry them
    state = new_state(gamebench_fight_sum=True)
    to_skirmish_round(state)
    keep_hands(state, {0: ["brawler", "spear", "pickaxe"], 1: ["thugs", "scavenger"]})  # 6 against 4
    assert state.last_skirmish["strength"] == [6, 4] and state.last_skirmish["winner"] == 0


def test_tiebreak_option_uses_skirmishes_won():
    state = new_state(contested_count=1, tiebreak_skirmishes=True)
    to_skirmish_round(state)
    keep_hands(state, {0: ["brawler"], 1: []})
    assert state.is_terminal() and state.skirmishes_won == [1, 0]
    # Give both tribes the same people: the skirmish decides.
    diff = people(state.owned(0)) - people(state.owned(1))
    state.discards[1].extend(["refugee"] * diff)
    assert state.final_people()[0] == state.final_people()[1]
    assert state.scores() == [1.0, 0.0]
    plain = ArcticGame({"contested_count": 1}).state_from_json({**state.to_json(), "options": {}})
    assert plain.scores() == [0.5, 0.5]


def test_contested_count_option_shortens_the_game():
    state = new_state(contested_count=3)
    while not state.is_terminal():
        pass_round(state)
    assert state.round == 5


# --- properties over seeded random playouts -----------------------------------------------------------------


@pytest.mark.parametrize("seats,options", [(2, {}), (3, {"gamebench_rounds": True}), (4, {"contested_count": 4}),
                                           (5, {"tiebreak_skirmishes": True, "contested_count": 3})])
def test_playouts_conserve_cards_and_hide_hands(seats, options):
    for seed in range(3):
        game = ArcticGame(options, seats)
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        box = total_cards(state)
        if not options.get("gamebench_rounds") and not options.get("contested_count"):
            assert box == box_cards(seats)  # the whole box: only the spare Refugees stay out
        while not state.is_terminal():
            assert total_cards(state) == box
            secrets = state.secrets()
            for seat in range(seats):
                assert len(state.hands[seat]) <= 5 + 14
                other = (seat + 1) % seats
                seen = json.dumps(state.observation(other).to_json())
                hand = json.dumps({"my_hand": state.observation(seat).data["my_hand"]})[1:-1]
                assert hand in secrets[seat]
                assert hand not in seen or hand in secrets[other]
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        assert total_cards(state) == box
        scores = state.scores()
        assert abs(sum(scores) - 1) < 1e-9 and all(0 <= s <= 1 for s in scores)
        again = game.replay(seed, state.log)
        assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
        restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("seats,options", [(3, {}), (5, {}), (2, {"gamebench_rounds": True}),
                                           (3, {"gamebench_rounds": True, "tiebreak_skirmishes": True}),
                                           (5, {"contested_count": 3, "tiebreak_skirmishes": True})])
def test_conformance_with_more_seats_and_variants(seats, options):
    """check_playouts beyond the conformance suite's 2 seats: 3 and 5 tribes, the published 16 rounds and the
    variants (most with a 4-resource pile to stay fast)."""
    finals = check_playouts(lambda: ArcticGame({"contested_count": 4, **options}, seats), n_playouts=6,
                            base_seed=50)
    assert all(state.is_terminal() for state in finals)


@pytest.mark.parametrize("seats", [3, 5])
def test_conformance_of_a_full_16_round_game_with_more_seats(seats):
    finals = check_playouts(lambda: ArcticGame({}, seats), n_playouts=1, base_seed=70)
    assert finals[0].round == 16 and finals[0].is_terminal()


# --- why the game ended (State.end_reason) and the board's result line ---------------------------------------


def finished(seats: int = 2, **options) -> ArcticState:
    """A game over after its one contested resource (round 3), every tribe having kept a lone Refugee."""
    state = new_state(seats, contested_count=1, **options)
    to_skirmish_round(state)
    assert state.end_reason() is None
    keep_hands(state, {seat: ["refugee"] for seat in range(seats)})
    assert state.is_terminal() and state.round == 3
    return state


def give_people(state: ArcticState, wanted: list[int]) -> None:
    """Add Refugees (one person each) until every tribe has the wanted number of people."""
    for seat, count in enumerate(wanted):
        have = people(state.owned(seat))
        assert have <= count
        state.discards[seat].extend(["refugee"] * (count - have))
    assert state.final_people() == wanted


def test_end_reason_the_most_people_when_the_contested_pile_runs_out():
    state = finished()
    give_people(state, [20, 15])
    assert state.scores() == [1.0, 0.0]
    assert state.end_reason() == ("The contested pile ran out after round 3; North Tribe has the most people "
                                  "(North Tribe 20, East Tribe 15).")
    assert state.result_text() == "North Tribe wins with the most people (North Tribe 20, East Tribe 15)."


def test_a_tie_of_every_tribe_is_a_draw_on_the_board_as_on_the_status_line():
    state = finished(3)
    give_people(state, [18, 18, 18])
    assert state.scores() == pytest.approx([1 / 3] * 3)  # all equal: the page says "The match ended in a draw."
    assert state.end_reason() == "The contested pile ran out after round 3 with every tribe on 18 people."
    assert state.result_text() == "A draw: every tribe ends with 18 people."
    assert "Shared win" not in state.observation(0).text


def test_a_tie_of_some_tribes_is_their_shared_win():
    state = finished(3)
    give_people(state, [18, 16, 18])
    assert state.scores() == [0.5, 0.0, 0.5]
    assert state.end_reason() == ("The contested pile ran out after round 3 with North Tribe and South Tribe tied on "
                                  "18 people.")
    assert state.result_text() == ("Shared win for North Tribe and South Tribe (North Tribe 18, East Tribe 16, "
                                   "South Tribe 18 people).")


def test_end_reason_names_the_skirmish_tiebreak():
    state = finished(tiebreak_skirmishes=True)
    give_people(state, [18, 18])
    state.skirmishes_won = [2, 1]
    assert state.scores() == [1.0, 0.0]
    assert state.end_reason() == ("The contested pile ran out after round 3 with every tribe on 18 people; most "
                                  "skirmishes won breaks the tie (North Tribe 2, East Tribe 1).")
    assert state.result_text() == ("North Tribe wins the tie for most people on skirmishes won (North Tribe 18, "
                                   "East Tribe 18 people).")
    state.skirmishes_won = [1, 1]
    assert state.scores() == [0.5, 0.5]
    assert state.end_reason() == ("The contested pile ran out after round 3 with every tribe on 18 people and 1 "
                                  "skirmish won each.")
    assert state.result_text() == "A draw: every tribe ends with 18 people."
