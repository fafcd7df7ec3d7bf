"""From match results to pairwise comparisons: who beat whom, by how much, in which match.

A two-seat match with scores (a, b) says: seat 1 beat seat 2 by a, seat 2 beat seat 1 by b
(fractional scores count as weighted wins). A match with more seats is split into every pair
of seats held by different agents, each pair's amounts normalised to sum to 1 and scaled by
1 / (number of pairs), so one match weighs the same whatever its seat count. Equal scores
are a tie: skipped (as the seeds did) or counted as half a win each way.

A match played in teams (``MatchResult.teams``) compares only seats of different teams: two teammates are
never compared, not even as a tie. Each pair of a member and an opponent counts the two teams' results, a
team's result being the sum of its members' scores: with scores (0.5, 0.5, 0, 0) for teams A+B vs C+D, each
of A-C, A-D, B-C and B-D is a win by 1 / 4. With ``teams`` None (or every seat its own team) nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from .results import MatchResult

TIE_RULES = ("skip", "half")


def comparison_matrix(matches: Sequence[MatchResult], agents: Sequence[str], ties: str) -> np.ndarray:
    """Shape (n_matches, K*K): row m holds match m's win amounts, entry i*K+j = i over j."""
    if ties not in TIE_RULES:
        raise ValueError(f"ties must be one of {TIE_RULES}, not {ties!r}")
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    rows = np.zeros((len(matches), k * k))
    for m, match in enumerate(matches):
        teams = match.teams
        pairs = [
            (p, q)
            for p, q in combinations(range(len(match.agents)), 2)
            if match.agents[p] != match.agents[q] and match.agents[p] in index and match.agents[q] in index
            and (teams is None or teams[p] != teams[q])
        ]
        result = match.seat_results()  # in teams, each seat counts its team's result: the sum of its members' scores
        for p, q in pairs:
            i, j = index[match.agents[p]], index[match.agents[q]]
            sp, sq = result[p], result[q]
            if sp == sq:
                if ties == "skip":
                    continue
                win_p = win_q = 0.5
            else:
                win_p, win_q = sp / (sp + sq), sq / (sp + sq)
            share = 1.0 / len(pairs) if len(match.agents) > 2 else 1.0
            rows[m, i * k + j] += win_p * share
            rows[m, j * k + i] += win_q * share
    return rows


def connected_components(agents: Sequence[str], totals: np.ndarray) -> list[list[str]]:
    """Groups of agents linked by at least one counted comparison (largest first), by scipy's graph search."""
    from scipy.sparse import csr_matrix  # here: scipy loads only when ratings are computed
    from scipy.sparse.csgraph import connected_components as components

    linked = csr_matrix((totals + totals.T) > 0)
    _, labels = components(linked, directed=False)
    groups: dict[int, list[str]] = {}
    for agent, label in zip(agents, labels, strict=True):
        groups.setdefault(int(label), []).append(agent)
    return sorted(groups.values(), key=lambda g: (-len(g), g))
