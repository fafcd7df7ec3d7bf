"""What may follow a finished match: the next round of a chain of rounds, or a rematch with sides swapped.

Both are get-or-create, so every player of the finished match who asks lands in the same following match; both keep
the people's browsers on their seats (``seat_claims.carry_claims``) and tell the finished match's pages, which then
show the way in. The pages' POSTs are gameplay.web.views ``next_round`` and ``rematch``.
"""

from __future__ import annotations

from django.db import transaction

from gameplay.engines.seeding import derive_seed
from gameplay.models import Match
from gameplay.reads.selectors import game_of
from gameplay.writes import seat_claims
from gameplay.writes.announce import notify_match_changed, schedule_agent_turns
from gameplay.writes.match_log import ServiceError, locked_match
from gameplay.writes.services import SeatController, create_match


def start_next_round(match_id: int) -> Match:
    """The next round of a finished match whose game plays a sequence of rounds (get or create).

    Same seats, controllers and names; the game decides the next round's options
    (``Game.next_round_options()``, None after the last round). Idempotent: both players
    of a finished round may ask, and they land in the same next match.
    """
    with transaction.atomic():
        match = locked_match(match_id)
        existing = Match.objects.filter(previous_round=match).first()
        if existing is not None:
            return existing
        if match.status != Match.Status.FINISHED:
            raise ServiceError("this round is not over yet")
        if match.private:
            # A private match is a study's round: the study decides what comes next, never a seat link.
            raise ServiceError("this round belongs to a study, which starts its next round itself")
        game = game_of(match)
        if not game.spec.round_sequence:
            raise ServiceError("this game is not played in rounds")
        next_options = game.next_round_options()
        if next_options is None:
            raise ServiceError("that was the last round")
        seats = list(match.seats.order_by("index"))
        host = next((s.index for s in seats if s.is_host), None)
        following = create_match(
            match.game_id,
            [SeatController(s.controller, s.agent_name, s.display_name) for s in seats],
            seed=derive_seed("next-round", match.seed) % (2**31),
            options=next_options,
            host_seat=host,
            schedule_agents=False,
            private=match.private,
        )
        following.previous_round = match
        following.save(update_fields=["previous_round"])
        seat_claims.carry_claims(match, following)  # the same browsers hold the next round's seats
    # No new event in this match, hence no seq: every page re-renders and shows the link to the next round.
    notify_match_changed(match)
    schedule_agent_turns(following)
    return following


def rematch_seat(index: int, seats: int) -> int:
    """A seat's index in the rematch: sides swap (two seats), or every seat moves one place on (more seats), so who
    moves first changes."""
    return (index - 1) % seats


def start_rematch(match_id: int) -> Match:
    """The same players again after a finished match, sides swapped (get or create): people keep their browsers'
    seats (their claims move with them), agents play again, the options stay. Idempotent: every player of the
    finished match may ask, and all land in the same rematch."""
    with transaction.atomic():
        match = locked_match(match_id)
        existing = Match.objects.filter(rematch_of=match).first()
        if existing is not None:
            return existing
        if match.private:
            raise ServiceError("this match belongs to a study, which decides what comes next")
        if match.status != Match.Status.FINISHED:
            raise ServiceError("this match is not over yet")
        seats = list(match.seats.order_by("index"))
        count = len(seats)
        by_new_index = {rematch_seat(s.index, count): s for s in seats}
        host = next((rematch_seat(s.index, count) for s in seats if s.is_host), None)
        following = create_match(
            match.game_id,
            [SeatController(by_new_index[i].controller, by_new_index[i].agent_name) for i in range(count)],
            seed=derive_seed("rematch", match.seed, match.pk) % (2**31),
            options=match.options,
            host_seat=host,
            schedule_agents=False,
        )
        following.rematch_of = match
        following.save(update_fields=["rematch_of"])
        seat_claims.carry_claims(match, following, moved=lambda index: rematch_seat(index, count))
    # No new event in this match: every page re-renders and shows the way into the rematch.
    notify_match_changed(match)
    schedule_agent_turns(following)
    return following
