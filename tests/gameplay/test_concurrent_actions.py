"""GameSpec.concurrent_actions (Pit's open market): a seat's action chosen on a page that other seats' trades have
since overtaken still counts if it is legal when it arrives; a second action from the same old page does not, and in
a turn-based game any out-of-date view is refused as before. Nothing changes when an action is refused."""

from __future__ import annotations

import pytest

from gameplay.models import Event
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import ActionRejected, SeatController

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
# Seed 369 deals Player 1 six Wheat and three Corn, Player 2 three Wheat, four Barley and two Corn, Player 3 five
# Barley and four Corn (tests/gameplay/test_pit_pages.py).
SEED = 369


def pit_match():
    return services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=SEED, options={"max_hands": 1}, host_seat=None)


def test_a_trade_by_others_does_not_void_an_offer_made_on_the_page_before_it():
    match = pit_match()
    seen = match.version  # all three pages were drawn at this version
    match = services.submit_action(match.pk, 0, "offer:3:corn", expected_version=seen)
    # Player 2 takes the offer from its page that showed it (an accept needs a view of the offer it takes).
    match = services.submit_action(match.pk, 1, "accept:0:3:wheat", expected_version=seen + 1)
    match = services.submit_action(match.pk, 2, "offer:2:barley", expected_version=seen)
    assert match.version == seen + 3
    assert [e.payload["action_id"] for e in Event.objects.filter(match=match, kind=Event.Kind.ACTION)
            .order_by("seq")] == ["offer:3:corn", "accept:0:3:wheat", "offer:2:barley"]
    assert state_of(match).hands[0]["wheat"] == 9  # the trade went through: Player 1 holds all nine Wheat


def test_a_second_action_from_the_same_old_page_is_refused_and_changes_nothing():
    match = pit_match()
    seen = match.version
    match = services.submit_action(match.pk, 2, "offer:2:barley", expected_version=seen)
    match = services.submit_action(match.pk, 0, "offer:1:wheat", expected_version=seen)
    before = (match.version, match.state)
    with pytest.raises(ActionRejected, match="your view is out of date"):
        services.submit_action(match.pk, 2, "offer:1:corn", expected_version=seen)  # Player 3 acted since
    match.refresh_from_db()
    assert (match.version, match.state) == before


def test_an_action_overtaken_into_illegality_is_refused_by_the_engine():
    match = pit_match()
    seen = match.version
    match = services.submit_action(match.pk, 0, "offer:3:corn", expected_version=seen)
    match = services.submit_action(match.pk, 1, "accept:0:3:wheat", expected_version=match.version)
    # Player 3 answers the offer it saw, but Player 2 took it first: the offer is gone.
    with pytest.raises(ActionRejected, match="not a legal action"):
        services.submit_action(match.pk, 2, "accept:0:3:barley", expected_version=seen + 1)


@pytest.mark.parametrize("version_offset", [1, 5])
def test_a_version_from_the_future_is_refused(version_offset):
    match = pit_match()
    with pytest.raises(ActionRejected, match="your view is out of date"):
        services.submit_action(match.pk, 0, "offer:1:wheat", expected_version=match.version + version_offset)


def test_a_turn_based_game_still_refuses_every_out_of_date_view():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=1, host_seat=None)
    seen = match.version
    first = state_of(match).legal_actions(0)[0].id
    match = services.submit_action(match.pk, 0, first, expected_version=seen)
    second = state_of(match).legal_actions(state_of(match).current_seats()[0])[0].id
    with pytest.raises(ActionRejected, match="your view is out of date"):
        services.submit_action(match.pk, state_of(match).current_seats()[0], second, expected_version=seen)


def test_an_action_from_a_page_of_the_previous_hand_is_refused_once_a_corner_dealt_a_new_one():
    """A click chosen on the last hand's cards must not land on the hand dealt after a corner, even if an action with
    the same id (here 'pass', always legal) exists there: the seat has not seen its new cards yet."""
    match = services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=SEED, options={"max_hands": 2}, host_seat=None)
    match = services.submit_action(match.pk, 0, "offer:3:corn", expected_version=match.version)
    match = services.submit_action(match.pk, 1, "accept:0:3:wheat", expected_version=match.version)
    match = services.submit_action(match.pk, 2, "pass", expected_version=match.version)  # tick 2 starts
    seen = match.version  # Player 3's page in tick 2 of the first hand
    match = services.submit_action(match.pk, 0, "corner:wheat", expected_version=seen)
    assert state_of(match).hands_played == 1  # a second hand was dealt
    before = (match.version, match.state)
    with pytest.raises(ActionRejected, match="your view is out of date"):
        services.submit_action(match.pk, 2, "pass", expected_version=seen)
    match.refresh_from_db()
    assert (match.version, match.state) == before
    # The new hand's page acts as usual, and is itself overtaken by others' actions without harm.
    fresh = match.version
    match = services.submit_action(match.pk, 0, "pass", expected_version=fresh)
    match = services.submit_action(match.pk, 2, "pass", expected_version=fresh)
    assert state_of(match).acted == [True, False, True]


def test_taking_an_offer_that_was_replaced_since_the_page_was_drawn_is_refused():
    """The page showed Player 1's offer of 3 cards; Player 1 has since put up another offer of 3 (other cards: with
    gamebench_public_commodities the page even named them). Taking 'it' must not take the new one unseen."""
    match = services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=SEED, options={"max_hands": 1}, host_seat=None)
    match = services.submit_action(match.pk, 0, "offer:3:corn", expected_version=match.version)
    match = services.submit_action(match.pk, 1, "pass", expected_version=match.version)
    match = services.submit_action(match.pk, 2, "pass", expected_version=match.version)  # tick 2 starts
    seen = match.version  # Player 3's page: Player 1 offers 3 cards (the Corn)
    match = services.submit_action(match.pk, 0, "offer:3:wheat", expected_version=seen)
    before = (match.version, match.state)
    with pytest.raises(ActionRejected, match="your view is out of date"):
        services.submit_action(match.pk, 2, "accept:0:3:barley", expected_version=seen)
    match.refresh_from_db()
    assert (match.version, match.state) == before
    # Other actions from that page still count, and the new offer can be taken from a page that showed it.
    shown = match.version
    match = services.submit_action(match.pk, 1, "pass", expected_version=seen)
    match = services.submit_action(match.pk, 2, "accept:0:3:barley", expected_version=shown)
    assert state_of(match).hands[2]["wheat"] == 3
