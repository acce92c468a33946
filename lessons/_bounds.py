"""The mistake bound on data no line separates, as Khardon & Wachman (2007, §2.1) quote it.

For any unit vector ``u`` and any ``γ > 0``, an example's *deviation* is how
far it falls short of margin ``γ``, ``ξ_j = max(0, γ - y_j <u, z_j>)``, and
``D = sqrt(Σ_j ξ_j²)`` is the total deviation. The perceptron started at 0
then makes at most ``(2(R + D)/γ)²`` mistakes on the sequence (Freund &
Schapire 1999, as quoted by Khardon & Wachman), with ``R = max_j ||z_j||``.
The threshold is folded in as in :func:`app_logic.diagnostics.novikoff_bound`:
``z = (x, -√C)``, ``u`` the true boundary ``(w*, θ*/√C)`` at unit length, so
the bound is for a perceptron started at ``w = 0, θ = 0`` (there η only
scales the run).

>>> import numpy as np
>>> X, y = np.array([[1.0], [-1.0], [0.5]]), np.array([1, -1, -1])  # the last is on the wrong side
>>> bound, gamma, D, R = noisy_mistake_bound(X, y, np.array([1.0]), 0.0, C=1.0)
>>> bool(D > 0 and bound > 0)
True
"""

from __future__ import annotations

import numpy as np


def deviations(X, y, w_star, theta_star, C: float, gamma: float) -> tuple[np.ndarray, float]:
    """Each example's deviation ``ξ_j`` from margin ``gamma`` of the folded true line, and R."""
    root_C = np.sqrt(C)
    u = np.r_[w_star, theta_star / root_C]
    u = u / np.linalg.norm(u)
    Z = np.c_[X, np.full(len(X), -root_C)]
    return np.maximum(0.0, gamma - y * (Z @ u)), float(np.sqrt((Z**2).sum(axis=1).max()))


def noisy_mistake_bound(X, y, w_star, theta_star, C: float, n_gammas: int = 400):
    """The smallest ``(2(R + D)/γ)²`` over a grid of ``γ`` in (0, R]: ``(bound, γ, D, R)``.

    The bound holds for every ``γ``, so the smallest over the grid is a bound too.
    """
    _, R = deviations(X, y, w_star, theta_star, C, 0.0)
    best = (np.inf, np.nan, np.nan)
    for gamma in np.linspace(R / n_gammas, R, n_gammas):
        xi, _ = deviations(X, y, w_star, theta_star, C, gamma)
        D = float(np.sqrt((xi**2).sum()))
        bound = (2 * (R + D) / gamma) ** 2
        if bound < best[0]:
            best = (bound, float(gamma), D)
    return best[0], best[1], best[2], R


# --- Lessons 4-6 (course-a): the voted perceptron's guarantee, PAM/PAUM's (Li et al. 2002) ---


def voted_error_bound(mistake_bound: float, m: int) -> float:
    """Freund & Schapire's (1999) guarantee for the voted perceptron, on one data set.

    Trained in one pass over ``m`` examples drawn independently, the voted
    perceptron errs on a new example with probability at most ``2/(m + 1)``
    times the expected mistake bound on ``m + 1`` examples; this is that
    factor times ``mistake_bound`` (the bound of the set at hand, not its
    expectation over sets).

    >>> voted_error_bound(30.0, 59)
    1.0
    """
    return 2.0 * mistake_bound / (m + 1)
