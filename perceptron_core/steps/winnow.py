"""The step of Winnow: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.winnow`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import copy_into, dot

#: The column of ``State.numbers``: the threshold ``theta``.
THETA = 0


class Settings(NamedTuple):
    """The promotion factor, whether a demotion eliminates (1.0) or divides (0.0), and the
    floor a divided weight stays above."""

    alpha: float
    eliminate: float
    floor: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    alpha, eliminate, floor = settings.alpha, settings.eliminate != 0, settings.floor
    x, y, w = X[j], Y[p, j], state.weights[p]
    # left to right: sums of powers of alpha can equal theta exactly, and the order decides
    s = dot(w, x) - state.numbers[p, THETA]
    if y > 0 and s < 0:  # false negative: promotion
        for i in range(x.shape[0]):
            if x[i] != 0:
                w[i] *= alpha
        return MISTAKE, s, math.nan, 0.0
    if y < 0 and s >= 0:  # false positive: demotion or elimination
        for i in range(x.shape[0]):
            if x[i] != 0:
                w[i] = 0.0 if eliminate else max(w[i] / alpha, floor)
        return MISTAKE, s, math.nan, 0.0
    return CORRECT, s, math.nan, 0.0


@jit_visit
def hypothesis(state, p, settings, out):
    """Write ``w`` of problem ``p`` into ``out``; returns ``theta``."""
    copy_into(out, state.weights[p])
    return state.numbers[p, THETA]
