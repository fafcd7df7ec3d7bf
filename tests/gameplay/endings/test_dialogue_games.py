"""Every way Meeting Scheduling, Fruit Trading and Debate end by their rules, played through the platform from a
position just before it (a Debate's last argument, then the judge's verdict through services.apply_verdict). Each
seat has its own payoff in a dialogue game, so every seat's status line is the game's own sentence, and it says how
this way ended (support.check_every_seat_reads)."""

from __future__ import annotations

import pytest

from .dialogue_games_support import ENDINGS
from .support import check_every_seat_reads, end_by, ending_ids

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ending", ENDINGS, ids=ending_ids(ENDINGS))
def test_every_way_the_game_ends_reads_the_same_to_every_seat(ending):
    check_every_seat_reads(end_by(ending), ending)
