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


# ---------------------------------------------------------------------------
# Lessons 7–11: what makes a kernel a kernel (lesson 8), one-vs-rest (lesson 8),
# AdaBoost's round error and vote (lesson 10). Appended as one block.
# ---------------------------------------------------------------------------


def gram_matrix(X, kernel: str, gamma: float = 1.0, degree: int = 2, coef0: float = 1.0):
    """``K[i, j] = k(x_i, x_j)`` for lesson 8's kernels and for two functions that are not kernels.

    ``kernel`` is one of ``"linear"`` ``<x, x'>``, ``"poly"``
    ``(γ<x, x'> + c0)^d``, ``"rbf"`` ``exp(-γ||x - x'||²)`` (as
    :class:`perceptron_core.kernel.KernelPerceptron` computes them),
    ``"tanh"`` ``tanh(γ<x, x'> - c0)`` (the "sigmoid kernel", which is not
    positive semi-definite for every γ, c0) or ``"distance"`` ``||x - x'||``
    (zero on the diagonal, so its eigenvalues sum to 0: one is negative as
    soon as two points differ).

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> gram_matrix(X, "distance")
    array([[0., 1.],
           [1., 0.]])
    """
    X = np.asarray(X, dtype=np.float64)
    inner = X @ X.T
    squared = np.diag(inner)[:, None] + np.diag(inner)[None, :] - 2 * inner
    squared = np.maximum(squared, 0.0)  # rounding can make a zero distance slightly negative
    matrices = {
        "linear": lambda: inner,
        "poly": lambda: (gamma * inner + coef0) ** degree,
        "rbf": lambda: np.exp(-gamma * squared),
        "tanh": lambda: np.tanh(gamma * inner - coef0),
        "distance": lambda: np.sqrt(squared),
    }
    if kernel not in matrices:
        raise ValueError(f"kernel must be one of {sorted(matrices)}; got {kernel!r}.")
    return matrices[kernel]()


def smallest_eigenvalue(K) -> float:
    """The smallest eigenvalue of the symmetric matrix ``K``: ``< 0`` means not a Gram matrix.

    A function ``k`` is a kernel (an inner product of feature vectors) only if
    every matrix ``K[i, j] = k(x_i, x_j)`` it builds is positive semi-definite,
    i.e. this number is ``≥ 0`` (Mercer's condition; Cristianini &
    Shawe-Taylor 2000, chapter 3). Rounding leaves about ``1e-13 · max|K|``.

    >>> smallest_eigenvalue(np.array([[0.0, 1.0], [1.0, 0.0]]))
    -1.0
    """
    return float(np.linalg.eigvalsh(np.asarray(K, dtype=np.float64))[0])


def one_vs_rest_label(scores, classes):
    """The multi-class prediction: the class whose one-vs-rest score is largest.

    ``scores[:, c]`` is the score of the problem "class c against the rest"
    (Khardon & Wachman 2007, §2.7); the first class wins a tie, as
    ``numpy.argmax`` does.

    >>> one_vs_rest_label(np.array([[-1.0, 0.5, 0.2]]), np.array([7, 8, 9]))
    array([8])
    """
    return np.asarray(classes)[np.argmax(np.asarray(scores), axis=1)]


def adaboost_vote(epsilon):
    """AdaBoost's vote ``α_t = ½ ln((1 − ε_t)/ε_t)`` of a round with weighted error ``ε_t``.

    ``ε_t`` is the share of the round's distribution ``d_t`` on the patterns
    the round's hypothesis gets wrong (Cantador & Dorronsoro 2005, §3, their
    formula (6)). A round at ``ε_t = 1/2`` (a coin toss) gets ``α_t = 0``.

    >>> float(adaboost_vote(0.5)), round(float(adaboost_vote(0.1)), 4)
    (0.0, 1.0986)
    """
    epsilon = np.asarray(epsilon, dtype=np.float64)
    return 0.5 * np.log((1.0 - epsilon) / epsilon)


def weighted_error(d, wrong) -> float:
    """``ε_t = Σ d_t(x)`` over the patterns the hypothesis gets wrong (``wrong`` is a mask).

    >>> weighted_error(np.array([0.5, 0.25, 0.25]), np.array([False, True, False]))
    0.25
    """
    return float(np.sum(np.asarray(d)[np.asarray(wrong, dtype=bool)]))
