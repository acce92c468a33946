"""The step of ALMA: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.alma`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import dot

_NAN = math.nan

#: The columns of ``State.numbers``: the bias and the counter ``k`` (1 + the updates so far).
BIAS, K = 0, 1


class Settings(NamedTuple):
    """The bias input (1 or 0), the approximation ``alpha`` and the scales ``B`` and ``C``."""

    xb: float
    alpha: float
    B: float
    C: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    S, xb = state.numbers, settings.xb
    x, y, w = X[j], Y[p, j], state.weights[p]
    norm = math.sqrt(dot(x, x) + xb * xb)
    if norm == 0:  # an all-zero example carries no information: skipped
        return CORRECT, 0.0, _NAN, _NAN
    s = 0.0  # the normalised score <w, x_hat>
    for i in range(x.shape[0]):
        s += w[i] * (x[i] / norm)
    s += S[p, BIAS] * (xb / norm)
    k = S[p, K]
    gamma_k = settings.B / math.sqrt(k)
    if y * s <= (1.0 - settings.alpha) * gamma_k:
        c = settings.C / math.sqrt(k) * y  # eta_k * y
        for i in range(x.shape[0]):
            w[i] += c * (x[i] / norm)
        S[p, BIAS] += c * (xb / norm)
        length = math.sqrt(dot(w, w) + S[p, BIAS] * S[p, BIAS])
        if length > 1.0:  # project back onto the unit ball
            for i in range(x.shape[0]):
                w[i] /= length
            S[p, BIAS] /= length
        S[p, K] = k + 1
        wrong = (s > 0) != (y > 0)
        return (MISTAKE if wrong else MARGIN), s, _NAN, _NAN
    return CORRECT, s, _NAN, _NAN
