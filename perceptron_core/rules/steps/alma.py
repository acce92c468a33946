"""The step of ALMA: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.alma`.
"""

from __future__ import annotations

import math

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import dot

_NAN = math.nan


@jit_visit
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    xb, alpha, B, C = hp[0], hp[1], hp[2], hp[3]
    x, y, w = X[j], Y[p, j], W[p]
    norm = math.sqrt(dot(x, x) + xb * xb)
    if norm == 0:  # an all-zero example carries no information: skipped
        return CORRECT, 0.0, _NAN, _NAN
    s = 0.0  # the normalised score <w, x_hat>
    for i in range(x.shape[0]):
        s += w[i] * (x[i] / norm)
    s += S[p, 0] * (xb / norm)
    k = S[p, 1]
    gamma_k = B / math.sqrt(k)
    if y * s <= (1.0 - alpha) * gamma_k:
        c = C / math.sqrt(k) * y  # eta_k * y
        for i in range(x.shape[0]):
            w[i] += c * (x[i] / norm)
        S[p, 0] += c * (xb / norm)
        length = math.sqrt(dot(w, w) + S[p, 0] * S[p, 0])
        if length > 1.0:  # project back onto the unit ball
            for i in range(x.shape[0]):
                w[i] /= length
            S[p, 0] /= length
        S[p, 1] = k + 1
        wrong = (s > 0) != (y > 0)
        return (MISTAKE if wrong else MARGIN), s, _NAN, _NAN
    return CORRECT, s, _NAN, _NAN


_SQRT2 = math.sqrt(2.0)
