"""Every way Two Rooms and a Boom, Are You the Traitor? and Who is Spy end by their rules (each winning rule, each cap
and each tie-break their ``end_reason`` words), played through the platform from a position just before it: every
seat's status line names the winner(s) as the scores have it (a camp revealed at the end), or a draw, then the
engine's reason, and the board agrees (support.check_every_seat_reads)."""

from __future__ import annotations

import pytest

from .hidden_role_games_support import ENDINGS
from .support import check_every_seat_reads, end_by, ending_ids

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ending", ENDINGS, ids=ending_ids(ENDINGS))
def test_every_way_the_game_ends_reads_the_same_to_every_seat(ending):
    check_every_seat_reads(end_by(ending), ending)
