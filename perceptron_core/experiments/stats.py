"""Summaries of fold accuracies: mean and the 95 % t-interval of KW (docs/algorithms.md §9.3).

Over ``k`` fold accuracies ``y_1..y_k`` with mean ``ybar``, the half-width is

    t_{k-1, 0.975} * sqrt( sum_i (y_i - ybar)^2 / (k (k - 1)) ),

Student's t quantile times the standard error of the mean.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import t as student_t


def t_interval(values, level: float = 0.95) -> tuple[float, float]:
    """``(mean, half_width)`` of the two-sided ``level`` t-interval of the mean.

    With one value the half-width is NaN (no spread to estimate).

    Examples
    --------
    >>> mean, half = t_interval([0.80, 0.85, 0.90])
    >>> round(mean, 4), round(half, 4)     # t_{2,0.975} = 4.3027, standard error 0.0289
    (0.85, 0.1242)
    """
    y = np.asarray(values, dtype=np.float64)
    k = len(y)
    if k == 0:
        raise ValueError("t_interval needs at least one value.")
    mean = float(y.mean())
    if k == 1:
        return mean, float("nan")
    standard_error = np.sqrt(((y - mean) ** 2).sum() / (k * (k - 1)))
    return mean, float(student_t.ppf(0.5 + level / 2, k - 1) * standard_error)
