"""The ways the platform ends a match of any game, for every game, read by every seat and a spectator: a
resignation (or giving up, in a cooperative game) names who resigned and who won; an abort, a partner who left a
study round and an agent that did not answer end it without a result and say why; a draw agreed where the rules
have one (elsewhere it is refused and never offered); a person's time running out where a turn timer applies."""

from __future__ import annotations

from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.utils import timezone

from gameplay.engines.registry import GAMES, create_game
from gameplay.models import Match
from gameplay.reads import selectors
from gameplay.studies.services import PARTNER_LEFT_REASON
from gameplay.writes import absent_players, match_endings, services
from gameplay.writes.absent_players import AGENT_SILENT_REASON
from gameplay.writes.match_endings import ABORTED_BY_PLAYER
from gameplay.writes.services import SeatController, ServiceError

from .support import (
    HUMAN,
    board_html,
    board_results,
    check_every_seat_reads,
    check_match_list_agrees,
    end_by,
    names_of,
    outcome_names,
    status_html,
    top_seats,
    viewers,
)
from .timeout_endings_support import TIMEOUT_ENDINGS

pytestmark = pytest.mark.django_db

GAME_IDS = sorted(GAMES)
RANDOM = SeatController("agent", agent_name="random")


def people(game_id: str, *, private: bool = False) -> Match:
    seats = GAMES[game_id].spec.min_seats
    return services.create_match(game_id, [HUMAN] * seats, seed=3, host_seat=None, schedule_agents=False,
                                 private=private)


def cooperative(game_id: str) -> bool:
    return len(set(create_game(game_id).teams())) == 1


def check_no_result(match: Match, why: str) -> None:
    """Every seat and a spectator read that the match ended without a result, and why; no board claims one."""
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.scores is None
    assert selectors.public_result(match) is None
    for seat in viewers(match):
        view = selectors.seat_view(match, seat)
        assert view.result is None and not view.legal_actions and not view.text_actions
        assert f"This match has ended without a result ({why})." in unescape(status_html(view))
        assert board_results(board_html(view)) == []  # the position is no end: no board words one


# --- resignation -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("resigner", ["first", "last"])
def test_a_resignation_says_who_resigned_and_who_won_to_every_seat(game_id, resigner):
    match = people(game_id)
    quitter = 0 if resigner == "first" else GAMES[game_id].spec.min_seats - 1
    match_endings.resign(match.pk, quitter)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.resigned_seat == quitter
    names = names_of(match)
    teams = create_game(game_id, match.options, len(names)).teams()
    others = tuple(s for s in names if teams[s] != teams[quitter])  # the other team(s) win
    assert top_seats(match.scores) == others
    for seat in viewers(match):
        index = None if seat is None else seat.index
        view = selectors.seat_view(match, seat)
        result = view.result
        assert board_results(board_html(view)) == []  # the position is no end: no board words a result
        who = "You" if index == quitter else names[quitter]
        if cooperative(game_id):
            assert result == f"{who} gave up, so the game ended.", result
            continue
        assert result.startswith(f"{who} resigned. "), result
        outcome = result.removeprefix(f"{who} resigned. ")
        reader = None if index in (None, quitter) else index  # the resigning seat reads who won, not "You lost"
        assert outcome_names(outcome, reader, names) == set(others), result
    check_match_list_agrees(match)


# --- no result: abort, a partner who left a study round, an agent that did not answer --------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_abort_ends_the_match_without_a_result_for_every_seat(game_id):
    match = people(game_id)
    assert all(selectors.seat_view(match, s).can_abort for s in match.seats.all())
    match_endings.abort(match.pk, 0)
    check_no_result(match, ABORTED_BY_PLAYER)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_partner_who_left_a_study_round_ends_it_without_a_result(game_id):
    """The study's rule when nobody takes over the seat of a person who left (gameplay.studies.services
    .apply_partner_left): the round's match is aborted with that reason, and every seat reads it."""
    match = people(game_id, private=True)
    absent_players.abort_match(match.pk, PARTNER_LEFT_REASON)
    check_no_result(match, PARTNER_LEFT_REASON)


def waiting_on_agents(game_id: str) -> list[str] | None:
    """Seats for a match where every seat due at the start is the random agent's and some person waits on it alone;
    None when the game gives no such seat (everyone acts at once)."""
    cls = GAMES[game_id]
    due = create_game(game_id, {}, cls.spec.min_seats).new_initial_state(3).current_seats()
    kinds = ["agent" if s in due else "human" for s in range(cls.spec.min_seats)]
    return kinds if "human" in kinds else None


WAITED_ON = [g for g in GAME_IDS if waiting_on_agents(g)]


@pytest.mark.parametrize("game_id", WAITED_ON)
def test_an_agent_that_did_not_answer_ends_the_match_without_a_result(game_id):
    kinds = waiting_on_agents(game_id)
    controllers = [RANDOM if k == "agent" else HUMAN for k in kinds]
    match = services.create_match(game_id, controllers, seed=3, host_seat=None, schedule_agents=False)
    person = kinds.index("human")
    with pytest.raises(ServiceError):
        absent_players.end_match_for_silent_agent(match.pk, person)  # the agent still has time
    waited = timezone.now() - timedelta(seconds=settings.AGENT_WAY_OUT_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(turn_started_at=waited)
    absent_players.end_match_for_silent_agent(match.pk, person)
    check_no_result(match, AGENT_SILENT_REASON)


def test_only_games_where_everyone_acts_at_once_have_no_agent_to_wait_on():
    assert set(GAME_IDS) - set(WAITED_ON) == {g for g in GAME_IDS if GAMES[g].spec.simultaneous
                                              and waiting_on_agents(g) is None}


# --- draws by agreement ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_draw_is_agreed_where_the_rules_have_one_and_refused_elsewhere(game_id):
    match = people(game_id)
    seats = list(match.seats.all())
    if not GAMES[game_id].spec.draw_by_agreement:
        assert not any(selectors.seat_view(match, s).draws for s in seats)  # never offered
        with pytest.raises(ServiceError, match="no draw by agreement"):
            match_endings.agree_to_draw(match.pk, 0)
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE and match.draw_agreed == []
        return
    for seat in seats:
        assert selectors.seat_view(match, seat).draws
        match_endings.agree_to_draw(match.pk, seat.index)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.agreed_draw and top_seats(match.scores) == ()
    for seat in viewers(match):
        view = selectors.seat_view(match, seat)
        assert view.result == "Drawn by agreement."
        assert board_results(board_html(view)) == []  # the position is no end: no board words one
    check_match_list_agrees(match)


# --- a person's time runs out (GameSpec.turn_timer) --------------------------------------------------------------


def test_the_turn_timer_endings_cover_every_timed_game():
    assert {g for g in GAME_IDS if GAMES[g].spec.turn_timer} == {e.game for e in TIMEOUT_ENDINGS}


@pytest.mark.parametrize("ending", TIMEOUT_ENDINGS, ids=[e.id for e in TIMEOUT_ENDINGS])
def test_a_timeout_that_ends_the_game_says_who_ran_out_of_time_and_who_won(ending):
    match = end_by(ending)
    check_every_seat_reads(match, ending)
    late = ending.final()[-1][1]
    name = names_of(match)[late]
    for seat in viewers(match):
        status = unescape(status_html(selectors.seat_view(match, seat)))
        who = "You" if seat is not None and seat.index == late else name
        last = next(line for line in status.splitlines() if "Last:" in line)
        assert who in last and "(time ran out)" in last, last
