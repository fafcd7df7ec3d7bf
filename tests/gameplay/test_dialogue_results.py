"""A dialogue game is general-sum: each seat has its own payoff, so its result line is the game's own account of
the outcome (who agreed to what and what each got), not "You lost" because the other seat's share was larger."""

import pytest

from gameplay.models import Match
from gameplay.reads import result_lines, selectors
from gameplay.writes import services
from tests.gameplay.ws_support import HUMAN


def say(match: Match, seat: int, action_id: str, text: str) -> Match:
    match.refresh_from_db()
    return services.submit_action(match.pk, seat, action_id, text=text, expected_version=match.version)


@pytest.mark.django_db
def test_an_agreement_reads_as_each_seats_payoff_for_both_seats_and_the_public():
    match = services.create_match("meeting_scheduling", [HUMAN, HUMAN], seed=3)
    say(match, 0, "propose:thursday", "Thursday suits me best.")
    match = say(match, 1, "accept", "Thursday it is.")
    assert match.status == Match.Status.FINISHED
    names = {0: "Player 1", 1: "Player 2"}
    state = selectors.state_of(match)
    lines = {seat: result_lines.result_text(match, names, seat, state) for seat in (0, 1, None)}
    assert all("Agreement on Thursday" in line for line in lines.values()), lines
    assert not any("won" in line.lower() or "lost" in line.lower() for line in lines.values()), lines
