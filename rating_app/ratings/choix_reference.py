"""The reference fit: choix, one resample at a time (what the vectorised path is checked against).

choix's public ``ilsr_pairwise`` takes whole (winner, loser) pairs. Fractional scores are weighted
wins, so, like the seeds, we drive choix's own ILSR loop (``choix.lsr._ilsr``), its chain set-up and
its stationary-distribution solver with a win-amount matrix instead of a pair list.
"""

from __future__ import annotations

import choix
import numpy as np


def fit_one(wins: np.ndarray, alpha: float = 0.001, max_iter: int = 1_000, tol: float = 1e-8) -> np.ndarray:
    """Centred log-strengths for one win matrix (``wins[i, j]`` = amount i beat j), computed by choix."""
    wins = np.asarray(wins, dtype=float)
    k = wins.shape[0]

    def lsr_step(params):
        strengths, chain = choix.lsr._init_lsr(k, alpha, params)
        chain += wins.T / (strengths[:, None] + strengths[None, :])  # chain[loser, winner] += amount / (s_w + s_l)
        chain -= np.diag(chain.sum(axis=1))
        return choix.utils.log_transform(choix.utils.statdist(chain))

    return choix.lsr._ilsr(lsr_step, None, max_iter, tol)


def fit_pairs(k: int, pairs: list[tuple[int, int]], alpha: float = 0.001) -> np.ndarray:
    """choix's public API on whole (winner, loser) pairs."""
    return choix.ilsr_pairwise(k, pairs, alpha=alpha, max_iter=1_000)
