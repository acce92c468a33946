"""The contract of docs/architecture.md#same-numbers, for the tests that compare numbers
computed two ways (they are marked ``numerics``; ``.ci/run`` runs them again on a baseline
CPU).

* Scores and weights computed two ways (the engine and a NumPy reference, primal and dual,
  a compiled loop and NumPy's BLAS) may differ in their last bits: the same sum added in
  another order, NumPy's vector ``exp`` against the C library's. Tests compare them with a
  stated tolerance (:data:`SCORE_RTOL`, or one stated beside the comparison).
* The record (which visits update, the events, the step of each update, votes, predicted
  labels) must be identical. A test demands that only where it holds by arithmetic
  (integer features with dyadic settings: every sum is exact, in any order) or on data it
  checked to hold no score near a threshold (:func:`band_clearance`, :data:`NEAR`): a
  difference in the last bits moves a decision only for a score that close to it.
"""

from __future__ import annotations

import numpy as np

#: How near a score may come to a threshold, relative to the magnitudes it is made of
#: (the sum of the absolute values of its terms), before a test stops demanding that two
#: computations of it decide alike. Two sums of ``n`` float64 terms added in different orders
#: differ by at most about ``2 n 2**-53`` of that magnitude (``1e-14`` for the tests'
#: ``n <= 50``); ``1e-9`` leaves room for what fed the score (the hypothesis, ``theta``)
#: having been rounded differently too, and real-valued data come that near a threshold
#: about once in ``10**9`` decisions.
NEAR = 1e-9

#: Relative tolerance for scores and weights computed two ways: many units in the last place
#: (``2**-52`` is one), far below any difference a wrong update would make.
SCORE_RTOL = 1e-9


def band_clearance(score, theta, t, magnitude) -> float:
    """How near ``score`` comes to the edges ``theta - t`` and ``theta + t`` of the margin
    band, relative to ``magnitude``: the smallest over every element of the arrays given.

    A score made of nothing (``magnitude`` 0) is exactly 0 in any order: infinitely clear.

    Examples
    --------
    >>> band_clearance(1.0, 0.5, 0.25, 2.0), band_clearance(0.0, 0.0, 0.0, 0.0)
    (0.125, inf)
    """
    lower = relative_gap(score - (theta - t), magnitude)
    upper = relative_gap(score - (theta + t), magnitude)
    return float(np.min(np.minimum(lower, upper), initial=np.inf))


def relative_gap(gap, magnitude):
    """``|gap| / magnitude``, elementwise, ``inf`` where ``magnitude`` is 0."""
    gap, magnitude = np.abs(np.asarray(gap, float)), np.asarray(magnitude, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(magnitude > 0, gap / magnitude, np.inf)


def exact_integer_data(seed: int, m: int, n: int, noise: float = 0.1):
    """Small whole-number features and a noisy linear target: with dyadic settings (``eta``,
    ``C``, ``theta_init`` of the form ``k / 2**j``) every score is an exact float64, so two
    computations of a run update alike by arithmetic, ties included."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(m, n)).astype(np.float64)
    y = np.where(X @ rng.integers(-3, 4, size=n) + 1 > 0, 1, -1)
    y[rng.random(m) < noise] *= -1
    y[:2] = [1, -1]
    return X, y
