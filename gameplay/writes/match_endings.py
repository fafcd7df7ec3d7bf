"""Writes: how the people at a table end a match themselves, as Lichess lets them: resign (give up, in a
cooperative game), abort a game that has hardly begun, and agree to a draw where the rules allow one.

Each runs in one transaction under the match's row lock, logs an event, and tells the match's sockets; a refusal
raises ServiceError (its text fit for the person) and changes nothing. None of them is open in a study round
(the study decides how its rounds end) or to an agent's seat.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone

from gameplay.engines.api import winner_of
from gameplay.models import Event, Match, Seat
from gameplay.reads.selectors import draws_open, final_measures, final_teams, game_of, may_abort, state_of
from gameplay.writes.announce import announce_finished, notify_match_changed
from gameplay.writes.match_log import ServiceError, append_event, locked_match

# The abort reason recorded when a person aborts a match before it got going.
ABORTED_BY_PLAYER = "aborted before the game got going"


def resign(match_id: int, seat_index: int) -> Match:
    """A person resigns (in a cooperative game: gives up): the match ends now, scored by the engine
    (``State.resignation_scores``), and is rated like any finished match."""
    with transaction.atomic():
        match = _person_in_running_match(match_id, seat_index, "resign")
        state = state_of(match)
        match.resigned_seat = seat_index
        end = _finish(match, state, state.resignation_scores(seat_index), {"resigned": seat_index})
    notify_match_changed(match, seq=end.seq)
    return match


def abort(match_id: int, seat_index: int) -> Match:
    """A person ends a match that has hardly begun (``selectors.may_abort``: fewer moves than seats, so nobody
    has had a second turn) without a result: nobody wins or loses, and it is not rated."""
    with transaction.atomic():
        match = _person_in_running_match(match_id, seat_index, "abort the game")
        if not may_abort(match, state_of(match)):
            raise ServiceError("the game is under way: it can be resigned, no longer aborted")
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.draw_agreed = []
        end = append_event(match, Event.Kind.END, None, {"aborted": ABORTED_BY_PLAYER, "by": seat_index}, None)
        match.save(update_fields=["status", "finished_at", "draw_agreed", "updated_at"])
    notify_match_changed(match, seq=end.seq)
    return match


def agree_to_draw(match_id: int, seat_index: int) -> Match:
    """Offer a draw, or accept the one offered: the seat joins ``Match.draw_agreed``; once every seat has, the
    match ends in a draw scored by the engine (``State.agreed_draw_scores``). The offer stands until another seat
    moves instead of accepting (``services.apply_action`` empties it) or declines it."""
    with transaction.atomic():
        match = _person_in_running_match(match_id, seat_index, "agree to a draw")
        game = game_of(match)
        if not game.spec.draw_by_agreement:
            raise ServiceError(f"the rules of {game.spec.name} have no draw by agreement")
        if match.wait_for_players:
            raise ServiceError("the other players have not joined yet")
        if not draws_open(game, list(match.seats.all())):  # the same rule the page offers draws by
            raise ServiceError("a draw is agreed between people; an agent plays on")
        if seat_index in match.draw_agreed:
            raise ServiceError("you have offered a draw already; it stands until it is answered")
        offered = bool(match.draw_agreed)
        match.draw_agreed = sorted([*match.draw_agreed, seat_index])
        event = append_event(match, Event.Kind.DRAW, seat_index, {"accepted" if offered else "offered": True}, None)
        if len(match.draw_agreed) == game.num_seats:
            match.agreed_draw = True
            state = state_of(match)
            event = _finish(match, state, state.agreed_draw_scores(), {"agreed_draw": True})
        else:
            match.save(update_fields=["draw_agreed", "updated_at"])
    notify_match_changed(match, seq=event.seq)
    return match


def refuse_draw(match_id: int, seat_index: int) -> Match:
    """Decline the draw offered (by another seat), or withdraw one's own offer: the offer is gone either way."""
    with transaction.atomic():
        match = _person_in_running_match(match_id, seat_index, "answer a draw offer")
        if not match.draw_agreed:
            raise ServiceError("no draw is on offer")
        word = "withdrawn" if seat_index in match.draw_agreed else "declined"
        match.draw_agreed = []
        event = append_event(match, Event.Kind.DRAW, seat_index, {word: True}, None)
        match.save(update_fields=["draw_agreed", "updated_at"])
    notify_match_changed(match, seq=event.seq)
    return match


# --- helpers -------------------------------------------------------------------


def _person_in_running_match(match_id: int, seat_index: int, what: str) -> Match:
    """The locked match, if ``seat_index`` is a person's seat in a running match that is not a study round."""
    match = locked_match(match_id)
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("the match is over")
    if match.private:
        raise ServiceError(f"nobody can {what} in a study round: the study decides how its rounds end")
    if not match.seats.filter(index=seat_index, controller=Seat.Controller.HUMAN).exists():
        raise ServiceError(f"only a person's seat can {what}")
    return match


def _finish(match: Match, state, scores: list[float], how: dict) -> Event:
    """End the match now with ``scores`` (not a move: the state stays as it was); rated like any finished match."""
    match.status = Match.Status.FINISHED
    match.scores = scores
    match.final_measures = final_measures(state)
    match.final_teams = final_teams(state)
    match.winner = winner_of(scores)
    match.finished_at = timezone.now()
    match.draw_agreed = []
    end = append_event(match, Event.Kind.END, None, {"scores": scores, "winner": match.winner, **how}, None)
    match.save()
    transaction.on_commit(partial(announce_finished, match.pk, match.game_id))
    return end
