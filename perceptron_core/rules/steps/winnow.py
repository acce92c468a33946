"""The step of Winnow: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.winnow`.
"""

from __future__ import annotations

import math

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import copy_into, dot


@jit_visit
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    alpha, eliminate, floor = hp[0], hp[1] != 0, hp[2]
    x, y, w = X[j], Y[p, j], W[p]
    # left to right: sums of powers of alpha can equal theta exactly, and the order decides
    s = dot(w, x) - S[p, 0]
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
def hypothesis(model, p, hp, out):
    """Write ``w`` of problem ``p`` into ``out``; returns ``theta``."""
    W, _, S = model
    copy_into(out, W[p])
    return S[p, 0]
