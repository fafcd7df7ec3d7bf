"""Bradley–Terry maximum likelihood by ILSR, vectorised over many win-count matrices at once.

P(i beats j) = e^βi / (e^βi + e^βj). This follows choix's ``ilsr_pairwise`` step by step
(Maystre & Grossglauser's iterative Luce spectral ranking), including its regularisation:
``alpha`` is added to every transition rate of the Markov chain, which keeps the chain
irreducible so every agent gets a finite rating even when it never won or never lost.
The seeds used alpha = 0.001, and so do we by default. Ratings are centred (mean 0).

Where choix fits one list of comparisons per call, ``fit_batch`` fits B count matrices in
one go: each iteration builds all B chains and solves all B stationary distributions with
one batched linear solve.
"""

from __future__ import annotations

import numpy as np

DEFAULT_ALPHA = 0.001


class ConvergenceError(RuntimeError):
    pass


def fit_batch(
    wins: np.ndarray, alpha: float = DEFAULT_ALPHA, max_iter: int = 100, tol: float = 1e-8
) -> np.ndarray:
    """Fit each of B win matrices; ``wins[b, i, j]`` = amount by which i beat j in resample b.

    Returns centred log-strengths, shape (B, K). Convergence test as choix's: the L1 norm of
    the change between iterations at most ``tol * K``, for every resample.
    """
    wins = np.asarray(wins, dtype=float)
    if wins.ndim == 2:
        return fit_batch(wins[None], alpha, max_iter, tol)[0]
    n_resamples, k, _ = wins.shape
    params = np.zeros((n_resamples, k))
    if k == 1 or n_resamples == 0:
        return params
    losses_to = np.transpose(wins, (0, 2, 1))  # losses_to[b, l, w] = wins[b, w, l]
    previous = None
    active = np.arange(n_resamples)  # resamples still iterating; converged ones drop out
    off_diagonal = ~np.eye(k, dtype=bool)
    for _ in range(max_iter):
        # Strengths scaled to mean 1, as choix does: alpha's pull depends on this scale.
        strength = np.exp(params[active])
        strength *= k / strength.sum(axis=1, keepdims=True)
        # Transition rate from loser l to winner w: alpha + (l's losses to w) / (s_w + s_l).
        chain = alpha + losses_to[active] / (strength[:, :, None] + strength[:, None, :])
        chain = np.where(off_diagonal, chain, 0.0)
        generator = chain - chain.sum(axis=2)[:, :, None] * np.eye(k)
        updated = _centred_log(_stationary(generator))
        params[active] = updated
        if previous is not None:
            done = np.abs(updated - previous).sum(axis=1) <= tol * k
            active, updated = active[~done], updated[~done]
            if active.size == 0:
                return params
        previous = updated
    raise ConvergenceError(f"ILSR did not converge in {max_iter} iterations for {active.size} of {n_resamples} fits")


def _stationary(generator: np.ndarray) -> np.ndarray:
    """Stationary distributions of B continuous-time chains: π Q = 0, Σπ = 1 (batched solve)."""
    n_resamples, k, _ = generator.shape
    system = np.transpose(generator, (0, 2, 1)).copy()
    system[:, -1, :] = 1.0  # replace one (redundant) balance equation by the normalisation
    rhs = np.zeros((n_resamples, k, 1))
    rhs[:, -1, 0] = 1.0
    return np.linalg.solve(system, rhs)[:, :, 0]


def _centred_log(weights: np.ndarray) -> np.ndarray:
    logs = np.log(weights)
    return logs - logs.mean(axis=1, keepdims=True)


def win_probability(ratings: np.ndarray) -> np.ndarray:
    """P[i, j] = probability that i beats j under the fitted ratings."""
    ratings = np.asarray(ratings, dtype=float)
    return 1.0 / (1.0 + np.exp(ratings[None, :] - ratings[:, None]))
