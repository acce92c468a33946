"""The step of the threshold-relative update: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.relative_update`.
"""

from __future__ import annotations

from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.steps import BIAS
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import add_row, dot


class Settings(NamedTuple):
    """The bias input (1 or 0), the fraction of the way to the threshold, the threshold."""

    xb: float
    r: float
    theta: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    W, S, xb = state.weights, state.numbers, settings.xb
    r, theta = settings.r, settings.theta
    y = Y[p, j]
    s = dot(W[p], X[j]) + S[p, BIAS] * xb
    if (s > theta) != (y > 0):  # a mistake: predicted +1 iff s > theta
        sq = dot(X[j], X[j]) + xb * xb
        c = r * (theta - s) / sq if sq > 0 else 0.0
        add_row(W, p, c, X, j)
        S[p, BIAS] += c * xb
        return MISTAKE, s - theta, c, -c * xb
    return CORRECT, s - theta, 0.0, 0.0
