"""One rule for a player's result in a match where a player may hold several seats. Pure: no database, no Django.

A tournament's pair of agents fills a match of more than two seats in turn (three seats: A, B, A), a study's agent
may hold several seats, the leaderboard counts every person as one player ("human"). Every table that shows a
player's results (tournament results per agent and per pair, the winner of each entry, the run_tournament report,
a study's won column) reads them from here, so they all count the same way:

* A seat's result is its score; in a match that ended in teams (``Match.final_teams``, hidden camps revealed), its
  team's result, the sum of its members' scores. Scores sum to 1, so a team's result is the team's share of the
  match: a Who is Spy civilian whose side won counts 1 (not the 1/3 the engine gives each of three civilians), a
  Codenames win counts 1 for every seat of the winning team. The ratings count teams the same way (every member
  counts its team's whole result, rating_app/README.md "Team results"), so a table and the ratings never disagree
  about who won. A match finished before teams were kept, or where every seat is its own team, counts seat scores.
* A player's result is the MEAN of the results of the seats it held. So a three-way draw of three seats
  (1/3, 1/3, 1/3) is a draw between the two agents holding them, whatever the seat split (A, B, A); an agent whose
  seat holds 1 while its other seat holds 0 has 0.5. Summing the seats instead made the agent holding more seats
  "win" every draw.
* Win, draw or loss compares results (equal within ``TOLERANCE``, so 0.2 + 0.2 + 0.2 over three seats draws with
  0.2 over two despite floating point): a player wins when its result is above every other player's, draws when
  it shares the top, loses otherwise.
* Points, average scores per match and the like add up results (each match counts once per player): a two-seat win
  is 1 point, a two-seat draw 1/2, a three-seat three-way draw 1/3 to each agent.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

TOLERANCE = 1e-9  # results this close are equal: scores are floats that sum to 1 only up to rounding

WIN, DRAW, LOSS = 1, 0, -1


def kept_teams(teams, seats: int) -> list[int] | None:
    """The team per seat a finished match kept (``Match.final_teams``), or None when it kept none usable."""
    if isinstance(teams, list | tuple) and len(teams) == seats:
        return [int(t) for t in teams]
    return None


def seat_results(scores: Sequence[float], teams: Sequence[int] | None = None) -> list[float]:
    """Each seat's result: its score, or, when ``teams`` gives the team per seat, its team's summed score."""
    scores = [float(s) for s in scores]
    teams = kept_teams(teams, len(scores))
    if teams is None:
        return scores
    totals: dict[int, float] = {}
    for team, score in zip(teams, scores, strict=True):
        totals[team] = totals.get(team, 0.0) + score
    return [totals[team] for team in teams]


def player_results(
    players: Sequence[Hashable], scores: Sequence[float], teams: Sequence[int] | None = None
) -> dict[Hashable, float]:
    """Each player's result, in the order the players first appear: the mean result of the seats it held."""
    if len(players) != len(scores):
        raise ValueError(f"{len(players)} players for {len(scores)} scores")
    held: dict[Hashable, list[float]] = {}
    for player, result in zip(players, seat_results(scores, teams), strict=True):
        held.setdefault(player, []).append(result)
    return {player: sum(results) / len(results) for player, results in held.items()}


def compare(mine: float, theirs: float) -> int:
    """WIN, DRAW or LOSS of a result against another."""
    if abs(mine - theirs) <= TOLERANCE:
        return DRAW
    return WIN if mine > theirs else LOSS


def outcome(results: dict[Hashable, float], player: Hashable) -> int:
    """WIN when ``player``'s result is above every other player's, DRAW when it shares the top, else LOSS."""
    others = [r for p, r in results.items() if p != player]
    return compare(results[player], max(others)) if others else DRAW


def winner(results: dict[Hashable, float]) -> Hashable | None:
    """The one player whose result is above every other's; None for a draw at the top."""
    return next((p for p in results if outcome(results, p) == WIN), None)
