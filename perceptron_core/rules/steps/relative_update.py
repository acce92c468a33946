"""The step of the threshold-relative update: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.relative_update`.
"""

from __future__ import annotations

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import add_row, dot


@jit_visit
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    xb, r, theta = hp[0], hp[1], hp[2]
    y = Y[p, j]
    s = dot(W[p], X[j]) + S[p, 0] * xb
    if (s > theta) != (y > 0):  # a mistake: predicted +1 iff s > theta
        sq = dot(X[j], X[j]) + xb * xb
        c = r * (theta - s) / sq if sq > 0 else 0.0
        add_row(W, p, c, X, j)
        S[p, 0] += c * xb
        return MISTAKE, s - theta, c, -c * xb
    return CORRECT, s - theta, 0.0, 0.0
