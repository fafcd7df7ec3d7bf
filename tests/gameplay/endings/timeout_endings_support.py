"""The endings by a person's time running out (GameSpec.turn_timer), one way or more for each timed game (Who is Spy,
Are You the Traitor?), as Endings from a position just before it: test_platform_endings.py plays them through the
platform, test_every_game_covered.py checks their ids."""

from __future__ import annotations

from dataclasses import replace

from tests.engines.who_is_spy_support import spy_and_villagers

from .hidden_role_games_support import NOBODY, ONE_ROUND, described, everyone_tied, traitor
from .support import TIMEOUT, Ending

TIMED = {"vote_seconds": 30, "describe_seconds": 30}


def timed_spy_ending(ending_id, build, ballots, winners, reason):
    """Who is Spy with its timers on: the others vote, then the last voter's time runs out (it abstains) and that
    ends the game."""
    def final():
        table = ballots(build())
        *voting, last = sorted(table)
        return (*((v, f"vote:{table[v]}") for v in voting), (TIMEOUT, last))

    return Ending(ending_id, "who_is_spy", build, final, winners, reason)


def timed_traitor_ending(ending_id, reason):
    """Are You the Traitor?'s last round: everyone else keeps their ring or goes on in the Magic Ring step, then the
    last seat's time runs out (the sweep moves it on), which ends the round and so the game."""
    base = traitor(ending_id, NOBODY, (2,), reason, draws=("chest_of_copper", "bag_of_gold", "silver_goblet"),
                   **ONE_ROUND)

    def final():
        *before, (seat, action) = base.final()
        assert action == "keep_ring", action  # the game ends in the Magic Ring step
        return (*before, (TIMEOUT, seat))

    return replace(base, final=final)


TIMEOUT_ENDINGS = [
    timed_spy_ending("who_is_spy-timeout-decides-the-vote", described(8, spy_seat=2, **TIMED),
                     lambda s: {0: 2, 1: 2, 2: 0, 3: 2}, lambda s: spy_and_villagers(s)[1],
                     "Every spy is out: Player 3 was voted out in round 1."),
    timed_spy_ending("who_is_spy-timeout-in-the-last-round", described(6, [everyone_tied], max_rounds=2,
                                                                       spy_seat=3, **TIMED),
                     everyone_tied, lambda s: tuple(s.spies), "The round limit of 2 rounds was reached"),
    timed_traitor_ending("are_you_the_traitor-timeout-ends-the-last-round",
                         "The 1-round limit was reached with nobody at the 10-point target; Player 3 finished with "
                         "the most points (3)."),
]
