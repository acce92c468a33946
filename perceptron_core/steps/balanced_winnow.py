"""The step of Balanced Winnow: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.balanced_winnow`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MISTAKE

#: All weights and theta are divided by RESCALE_BY when a weight exceeds
#: RESCALE_AT: an exact change of scale that changes no prediction.
RESCALE_AT = 2.0**600
RESCALE_BY = 2.0**500

#: The columns of ``State.numbers``: the bias input's weights ``b+`` and ``b-``, and
#: the threshold ``theta``; ``State.weights`` is ``w+``, ``State.second`` is ``w-``.
BIAS_POS, BIAS_NEG, THETA = 0, 1, 2


class Settings(NamedTuple):
    """The bias input (1 or 0) and the promotion factor ``alpha``."""

    xb: float
    alpha: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    S, xb, alpha = state.numbers, settings.xb, settings.alpha
    x, y, wp, wn = X[j], Y[p, j], state.weights[p], state.second[p]
    s = 0.0
    for i in range(x.shape[0]):
        s += (wp[i] - wn[i]) * x[i]
    s = s + (S[p, BIAS_POS] - S[p, BIAS_NEG]) * xb - S[p, THETA]
    if (y > 0 and s < 0) or (y < 0 and s >= 0):
        # promotion (y = +1) or demotion (y = -1): w+ *= a^(y x), w- /= a^(y x)
        for i in range(x.shape[0]):
            if x[i] != 0:
                f = alpha ** (y * x[i])
                wp[i] *= f
                wn[i] /= f
        if xb != 0:
            f = alpha ** (y * xb)
            S[p, BIAS_POS] *= f
            S[p, BIAS_NEG] /= f
        # Real features can grow the weights without bound: rescale before anything
        # overflows (a power of two, so exact).
        big = max(S[p, BIAS_POS], S[p, BIAS_NEG])
        for i in range(x.shape[0]):
            big = max(big, wp[i], wn[i])
        if big > RESCALE_AT:  # loops, not array operations: see vectors.copy_into
            for i in range(x.shape[0]):
                wp[i] /= RESCALE_BY
                wn[i] /= RESCALE_BY
            for c in range(S.shape[1]):
                S[p, c] /= RESCALE_BY
        return MISTAKE, s, math.nan, math.nan
    return CORRECT, s, math.nan, math.nan


@jit_visit
def hypothesis(state, p, settings, out):
    """Write ``w+ - w-`` of problem ``p`` into ``out``; returns the threshold with the bias
    folded in."""
    Wpos, Wneg, S = state.weights, state.second, state.numbers
    for f in range(out.shape[0]):  # a loop: see vectors.copy_into
        out[f] = Wpos[p, f] - Wneg[p, f]
    return S[p, THETA] - (S[p, BIAS_POS] - S[p, BIAS_NEG]) * settings.xb
